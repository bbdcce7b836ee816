// catch_session.cpp: the one compiled copy of Catch2's implementation (see catch_session.hpp).
#define CATCH_CONFIG_RUNNER
#include "support/catch_session.hpp"

#include <catch2/catch.hpp>

namespace awb::test {

int run_catch(int argc, char** argv) { return Catch::Session().run(argc, argv); }

}  // namespace awb::test
