// catch_main.cpp: the one Catch2 main of the unit-test binary.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
