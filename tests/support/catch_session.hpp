// catch_session.hpp: Catch2's test runner, compiled once (catch_session.cpp) for every test
// binary: the single header's implementation takes about 20 s to compile, so each binary's main
// calls this instead of compiling its own.
#ifndef AWB_TESTS_SUPPORT_CATCH_SESSION_HPP_
#define AWB_TESTS_SUPPORT_CATCH_SESSION_HPP_

namespace awb::test {

// Runs the test cases selected by the command line; returns the process's exit status.
int run_catch(int argc, char** argv);

}  // namespace awb::test

#endif  // AWB_TESTS_SUPPORT_CATCH_SESSION_HPP_
