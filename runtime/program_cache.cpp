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

// Reads a regular file whole. Whatever else sits at `path` (a FIFO, a
// device, a directory, something huge) is no cache entry: opening never
// blocks (O_NONBLOCK: a FIFO without a writer would wait forever), and the
// type and size are checked before reading.
bool readFile(const std::string &path, std::vector<unsigned char> &out) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    return false;
  struct stat info {};
  bool ok = fstat(fd, &info) == 0 && S_ISREG(info.st_mode) &&
            info.st_size >= 0 && info.st_size <= kLargestEntry;
  if (ok) {
    out.resize(static_cast<size_t>(info.st_size));
    size_t done = 0;
    while (ok && done < out.size()) {
      ssize_t n = read(fd, out.data() + done, out.size() - done);
      if (n < 0 && errno == EINTR)
        continue;
      ok = n > 0;
      done += ok ? static_cast<size_t>(n) : 0;
    }
  }
  close(fd);
  return ok;
}

bool writeFile(int fd, const void *data, size_t size) {
  auto *bytes = static_cast<const unsigned char *>(data);
  while (size > 0) {
    ssize_t n = write(fd, bytes, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    bytes += n;
    size -= static_cast<size_t>(n);
  }
  return true;
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
  std::vector<unsigned char> entry;
  if (!readFile(entryPath(key), entry))
    return false;
  // Entry: magic, key length, key, binary. The key is compared in full.
  size_t header = sizeof(kEntryMagic) + sizeof(uint64_t);
  if (entry.size() < header ||
      std::memcmp(entry.data(), kEntryMagic, sizeof(kEntryMagic)) != 0)
    return false;
  uint64_t key_size;
  std::memcpy(&key_size, entry.data() + sizeof(kEntryMagic), sizeof(key_size));
  if (key_size != key.size() || entry.size() - header < key_size ||
      std::memcmp(entry.data() + header, key.data(), key_size) != 0)
    return false;
  binary.assign(entry.begin() + static_cast<ptrdiff_t>(header + key_size),
                entry.end());
  return true;
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
