// elf_check.hpp: whether a file can be a shared library for this machine, judged from its ELF
// headers before anything maps it (a truncated library faults with SIGBUS once mapped).
#ifndef AWB_CORE_PLUGINS_ELF_CHECK_HPP_
#define AWB_CORE_PLUGINS_ELF_CHECK_HPP_

#include <filesystem>
#include <optional>
#include <string>

namespace awb::core {

// Why `file` is not a shared library this process could load ("the file is 4096 bytes long but
// its section headers end at byte 18344: it is truncated"), or nothing when its headers are
// sound: ELF magic, 64-bit little-endian, a shared object for this machine, and every header
// table and loadable segment inside the file.
std::optional<std::string> elf_problem(const std::filesystem::path& file);

}  // namespace awb::core

#endif  // AWB_CORE_PLUGINS_ELF_CHECK_HPP_
