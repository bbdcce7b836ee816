// catch_main.cpp: the main of the test binaries that need nothing before their cases run.
#include "support/catch_session.hpp"

int main(int argc, char** argv) { return awb::test::run_catch(argc, argv); }
