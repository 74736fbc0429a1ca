# `make package`: a Debian package of servebench and servebench-mock (CPack DEB) with man pages
# and bash/zsh completions. Depends is computed by dpkg-shlibdeps from the binaries' shared
# libraries, so installing it with `apt install ./servebench_*.deb` pulls only Debian runtime
# packages. The binaries embed their data (corpus, tokenizer tables, chart library) and read
# nothing from the source tree at run time.
include(GNUInstallDirs)
install(TARGETS servebench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET servebench-mock)
  install(TARGETS servebench-mock RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(FILES ${PROJECT_SOURCE_DIR}/docs/man/servebench.1 ${PROJECT_SOURCE_DIR}/docs/man/servebench-mock.1
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/dist/completions/servebench.bash
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME servebench)
install(FILES ${PROJECT_SOURCE_DIR}/dist/completions/_servebench
  DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "servebench")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "servebench maintainers <servebench@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Benchmark client for LLM inference servers (AIPerf-compatible)")
set(CPACK_DEBIAN_PACKAGE_SECTION "net")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# FFmpeg is opened with dlopen when a video is made (src/media/ffmpeg_api.h), so dpkg-shlibdeps
# does not see it: its runtime packages, for the major versions the headers were compiled
# against, are named here (CPack adds the computed dependencies after them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(SB_PKG_FFMPEG REQUIRED libavcodec libavformat libavutil libswscale)
set(_sb_ffmpeg_depends "")
foreach(lib libavcodec libavformat libavutil libswscale)
  string(REGEX MATCH "^[0-9]+" _major "${SB_PKG_FFMPEG_${lib}_VERSION}")
  list(APPEND _sb_ffmpeg_depends "${lib}${_major}")
endforeach()
string(REPLACE ";" ", " CPACK_DEBIAN_PACKAGE_DEPENDS "${_sb_ffmpeg_depends}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # servebench_<version>_<arch>.deb
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
include(CPack)
