// elf_check.cpp: reads the ELF file header and program headers with pread and checks them
// against the file's size; no mapping, so a damaged file cannot fault this process.
#include "core/plugins/elf_check.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace awb::core {
namespace {

#if defined(__x86_64__)
constexpr uint16_t kMachine = EM_X86_64;
constexpr const char* kMachineName = "x86-64";
#elif defined(__aarch64__)
constexpr uint16_t kMachine = EM_AARCH64;
constexpr const char* kMachineName = "aarch64";
#else
#error "elf_check: name this machine's ELF e_machine"
#endif

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

bool read_at(int fd, void* out, size_t size, uint64_t offset) {
  auto* p = static_cast<char*>(out);
  while (size > 0) {
    const ssize_t n = ::pread(fd, p, size, static_cast<off_t>(offset));
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
  return true;
}

std::string truncated(uint64_t size, const char* what, uint64_t end) {
  return "the file is " + std::to_string(size) + " bytes long but its " + what + " end at byte " +
         std::to_string(end) + ": it is truncated";
}

}  // namespace

std::optional<std::string> elf_problem(const std::filesystem::path& file) {
  const Fd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return "cannot open it: " + std::string(std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return "not a regular file";
  const auto size = static_cast<uint64_t>(st.st_size);
  Elf64_Ehdr eh{};
  if (size < EI_NIDENT || !read_at(fd.get(), eh.e_ident, EI_NIDENT, 0) ||
      std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
    return "not an ELF file (a shared library starts with the bytes 0x7f 'E' 'L' 'F')";
  if (eh.e_ident[EI_CLASS] != ELFCLASS64) return "a 32-bit ELF file; this machine loads 64-bit";
  if (eh.e_ident[EI_DATA] != ELFDATA2LSB) return "a big-endian ELF file";
  if (size < sizeof eh || !read_at(fd.get(), &eh, sizeof eh, 0))
    return truncated(size, "ELF header would", sizeof eh);
  if (eh.e_type != ET_DYN)
    return eh.e_type == ET_REL ? "an object file (.o), not a shared library: link it with "
                                 "awb_add_plugin()"
           : eh.e_type == ET_EXEC
               ? "an executable, not a shared library"
               : "an ELF file of type " + std::to_string(eh.e_type) + ", not a shared library";
  if (eh.e_machine != kMachine)
    return std::string("built for another processor (ELF machine ") + std::to_string(eh.e_machine) +
           "); this one is " + kMachineName;
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0)
    return "its program header table is missing or malformed";
  const uint64_t ph_end = eh.e_phoff + uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr);
  if (eh.e_phoff > size || ph_end > size) return truncated(size, "program headers", ph_end);
  if (eh.e_shoff != 0) {
    const uint64_t sh_end = eh.e_shoff + uint64_t{eh.e_shnum} * eh.e_shentsize;
    if (eh.e_shoff > size || sh_end > size) return truncated(size, "section headers", sh_end);
  }
  std::vector<Elf64_Phdr> ph(eh.e_phnum);
  if (!read_at(fd.get(), ph.data(), ph.size() * sizeof(Elf64_Phdr), eh.e_phoff))
    return "its program headers cannot be read";
  for (const Elf64_Phdr& p : ph) {
    if (p.p_type != PT_LOAD && p.p_type != PT_DYNAMIC) continue;
    const uint64_t end = p.p_offset + p.p_filesz;
    if (end < p.p_offset || end > size)
      return truncated(size, p.p_type == PT_LOAD ? "loadable segments" : "dynamic section", end);
  }
  return std::nullopt;
}

}  // namespace awb::core
