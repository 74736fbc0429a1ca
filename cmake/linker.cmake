# The linker. mold (scripts/setup.sh installs it) links a test executable of the ASan build in
# 2.8 CPU-s where GNU ld needs 6.4 (1.7 s wall against 6.5), and the three builds of `make test`
# link about 200 executables (docs/reliability.md, "CI time"). Without mold, or with
# -DSERVEBENCH_MOLD=OFF, the compiler's default linker links.
if(SERVEBENCH_MOLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=mold" SERVEBENCH_HAVE_MOLD)
  if(SERVEBENCH_HAVE_MOLD)
    add_link_options(-fuse-ld=mold)
  endif()
endif()
