// The object that builds the tests' shared precompiled header (cmake/test_build.cmake).
