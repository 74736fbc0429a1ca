# bash completion for servebench
_servebench() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "profile tokenize report compare plot merge launch --version --help" -- "$cur"))
    return
  fi
  case ${COMP_WORDS[1]} in
    launch)
      if [[ $COMP_CWORD -eq 2 ]]; then COMPREPLY=($(compgen -W "k8s slurm" -- "$cur")); return; fi ;;
    report|merge|compare|plot)
      if [[ $cur != -* ]]; then COMPREPLY=($(compgen -d -- "$cur")); return; fi ;;
  esac
  if [[ $cur == -* ]]; then
    local flags
    flags=$(servebench "${COMP_WORDS[1]}" --help 2>/dev/null | grep -oE -- '--[a-z0-9-]+' | sort -u)
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -F _servebench servebench
