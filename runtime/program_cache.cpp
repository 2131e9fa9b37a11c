#include "runtime/program_cache.h"

#include "runtime/hash.h"
#include "runtime/settings.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace weft {
namespace {

constexpr char kEntryMagic[8] = {'W', 'E', 'F', 'T', 'K', 'E', 'Y', '1'};

bool absolute(const Text &path) { return path && (*path)[0] == '/'; }

std::string defaultDirectory(const Settings &settings) {
  if (settings.cache_directory)
    return *settings.cache_directory == "off" ? std::string()
                                              : *settings.cache_directory;
  if (absolute(settings.xdg_cache_home))
    return *settings.xdg_cache_home + "/weft";
  if (absolute(settings.home))
    return *settings.home + "/.cache/weft";
  return {};
}

// mkdir -p, private to the user: cached code is executed.
bool makeDirectories(const std::string &path) {
  for (size_t slash = 1; slash != std::string::npos;) {
    slash = path.find('/', slash + 1);
    std::string prefix = path.substr(0, slash);
    if (mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST)
      return false;
  }
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// No cache entry is this large; a file that is, is not one.
constexpr off_t kLargestEntry = off_t{1} << 32;

// Moves exactly `size` bytes between `fd`, from where it stands, and
// `bytes` with `transfer` (read or write), again after a signal.
template <typename Byte, typename Transfer>
bool transferAll(int fd, Byte *bytes, size_t size, Transfer transfer) {
  while (size > 0) {
    ssize_t n = transfer(fd, bytes, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    bytes += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool readExactly(int fd, void *to, size_t size) {
  return transferAll(fd, static_cast<unsigned char *>(to), size, read);
}

// Reads the entry for `key` at `path` into `binary`. An entry is the magic,
// the key's length, the key (compared in full) and the binary. Whatever
// else sits at `path` is no entry: opening never blocks (O_NONBLOCK: a FIFO
// without a writer would wait forever), the file's type and size are
// checked first, and its header and key are read and compared before the
// binary, so a damaged or foreign file costs a few bytes, not a read of the
// whole of it (a 1 GiB damaged entry took 10 s and 2 GB).
bool readEntry(const std::string &path, const std::string &key,
               std::vector<unsigned char> &binary) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    return false;
  constexpr size_t kHeader = sizeof(kEntryMagic) + sizeof(uint64_t);
  struct stat info {};
  bool ok = fstat(fd, &info) == 0 && S_ISREG(info.st_mode) &&
            info.st_size <= kLargestEntry &&
            uint64_t(info.st_size) >= kHeader + key.size();
  unsigned char header[kHeader];
  uint64_t key_size = 0;
  ok = ok && readExactly(fd, header, kHeader) &&
       std::memcmp(header, kEntryMagic, sizeof(kEntryMagic)) == 0;
  if (ok)
    std::memcpy(&key_size, header + sizeof(kEntryMagic), sizeof(key_size));
  std::string stored;
  if (ok && key_size == key.size()) {
    stored.resize(key.size());
    ok = readExactly(fd, stored.data(), stored.size()) && stored == key;
  } else {
    ok = false;
  }
  if (ok) {
    binary.resize(size_t(info.st_size) - kHeader - key.size());
    ok = readExactly(fd, binary.data(), binary.size());
  }
  close(fd);
  return ok;
}

bool writeFile(int fd, const void *data, size_t size) {
  return transferAll(fd, static_cast<const unsigned char *>(data), size,
                     write);
}

} // namespace

const ProgramCache &ProgramCache::instance() {
  // Never destroyed (usable from static destructors during exit).
  static const ProgramCache &cache =
      *new ProgramCache(defaultDirectory(settings()));
  return cache;
}

ProgramCache::ProgramCache(std::string directory) {
  if (!directory.empty() && directory[0] == '/' && makeDirectories(directory))
    directory_ = std::move(directory);
}

std::string ProgramCache::sourceKey(const std::string &source,
                                    const std::string &options,
                                    const std::string &code_target,
                                    const compiler::DeviceDescription &device,
                                    const std::string &compiler_identity) {
  std::string key = "weft-source-v1\n";
  key += compiler_identity + "\n" + code_target + "\n";
  for (const std::string &feature : device.opencl_c_features)
    key += feature + ",";
  key += "\n" + std::to_string(options.size()) + ":" + options + "\n";
  key += source;
  return key;
}

std::string ProgramCache::entryPath(const std::string &key) const {
  Hash128 hash;
  hash.add(key);
  return directory_ + "/" + hash.hex() + ".weftbin";
}

bool ProgramCache::lookup(const std::string &key,
                          std::vector<unsigned char> &binary) const {
  if (!enabled())
    return false;
  return readEntry(entryPath(key), key, binary);
}

void ProgramCache::store(const std::string &key,
                         const std::vector<unsigned char> &binary) const {
  if (!enabled())
    return;
  static std::atomic<unsigned> sequence{0};
  std::string path = entryPath(key);
  std::string temporary = path + ".tmp." + std::to_string(getpid()) + "." +
                          std::to_string(sequence++);
  int fd =
      open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return;
  uint64_t key_size = key.size();
  bool ok = writeFile(fd, kEntryMagic, sizeof(kEntryMagic)) &&
            writeFile(fd, &key_size, sizeof(key_size)) &&
            writeFile(fd, key.data(), key.size()) &&
            writeFile(fd, binary.data(), binary.size());
  ok = close(fd) == 0 && ok;
  if (!ok || rename(temporary.c_str(), path.c_str()) != 0)
    unlink(temporary.c_str());
}

} // namespace weft
