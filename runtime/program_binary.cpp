#include "runtime/program_binary.h"

#include "runtime/hash.h"

#include <elf.h>

#include <cstring>
#include <map>
#include <type_traits>

namespace weft {
namespace {

using compiler::AccessQualifier;
using compiler::AddressSpace;
using compiler::ArgumentKind;
using compiler::KernelArgument;
using compiler::KernelDescription;

constexpr char kMagic[8] = {'W', 'E', 'F', 'T', 'P', 'R', 'G', '\0'};
// Bump when the payload layout or the launch ABI changes.
constexpr uint32_t kFormatVersion = 20; // 20: the plan's lanes

struct Header {
  char magic[8];
  uint32_t version;
  uint32_t reserved;
  uint64_t payload_size;
  uint64_t payload_checksum;
};

class Writer {
public:
  template <typename T> void scalar(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    auto *bytes = reinterpret_cast<const unsigned char *>(&value);
    out_.insert(out_.end(), bytes, bytes + sizeof(T));
  }
  void bytes(const void *data, uint64_t size) {
    scalar(size);
    auto *begin = static_cast<const unsigned char *>(data);
    out_.insert(out_.end(), begin, begin + size);
  }
  void string(const std::string &text) { bytes(text.data(), text.size()); }
  std::vector<unsigned char> &result() { return out_; }

private:
  std::vector<unsigned char> out_;
};

// Every read is bounds-checked; after the first failure all reads fail.
class Reader {
public:
  Reader(const unsigned char *data, size_t size) : data_(data), size_(size) {}
  template <typename T> T scalar() {
    T value{};
    if (take(sizeof(T)))
      std::memcpy(&value, data_ + position_ - sizeof(T), sizeof(T));
    return value;
  }
  std::string string() {
    uint64_t size = scalar<uint64_t>();
    if (!take(size))
      return {};
    return std::string(reinterpret_cast<const char *>(data_ + position_ - size),
                       size);
  }
  std::vector<unsigned char> bytes() {
    uint64_t size = scalar<uint64_t>();
    if (!take(size))
      return {};
    return std::vector<unsigned char>(data_ + position_ - size,
                                      data_ + position_);
  }
  bool ok() const { return ok_; }
  void fail() { ok_ = false; }
  bool atEnd() const { return position_ == size_; }

private:
  bool take(uint64_t size) {
    if (!ok_ || size > size_ - position_) {
      ok_ = false;
      return false;
    }
    position_ += size;
    return true;
  }
  const unsigned char *data_;
  size_t size_;
  size_t position_ = 0;
  bool ok_ = true;
};

template <typename T> struct IsVector : std::false_type {};
template <typename T> struct IsVector<std::vector<T>> : std::true_type {};

// Writes a kernel's description field by field, in the order of its field
// list (compiler/interface/compiler_interface.h); FieldReader reads it back.
struct FieldWriter {
  Writer &w;
  template <typename T> void operator()(const char *, const T &value) {
    if constexpr (std::is_same_v<T, std::string>)
      w.string(value);
    else if constexpr (std::is_enum_v<T>)
      w.scalar(static_cast<uint32_t>(value));
    else if constexpr (std::is_same_v<T, bool>)
      w.scalar<uint8_t>(value);
    else if constexpr (std::is_arithmetic_v<T>)
      w.scalar(value);
    else if constexpr (std::is_array_v<T>)
      for (const auto &element : value)
        (*this)("", element);
    else if constexpr (IsVector<T>::value) {
      w.scalar<uint32_t>(static_cast<uint32_t>(value.size()));
      for (const auto &element : value)
        (*this)("", element);
    } else
      compiler::forEachField(value, *this);
  }
};

// Bounds are checked by Reader; what the values mean is checked after
// (validKernel), since they come from outside.
struct FieldReader {
  Reader &r;
  template <typename T> void operator()(const char *, T &value) {
    if constexpr (std::is_same_v<T, std::string>)
      value = r.string();
    else if constexpr (std::is_enum_v<T>)
      value = static_cast<T>(r.scalar<uint32_t>());
    else if constexpr (std::is_same_v<T, bool>)
      value = r.scalar<uint8_t>() != 0;
    else if constexpr (std::is_arithmetic_v<T>)
      value = r.scalar<T>();
    else if constexpr (std::is_array_v<T>)
      for (auto &element : value)
        (*this)("", element);
    else if constexpr (IsVector<T>::value) {
      uint32_t count = r.scalar<uint32_t>();
      if (!r.ok() || count > kMaxListLength) {
        r.fail();
        return;
      }
      value.resize(count);
      for (auto &element : value)
        (*this)("", element);
    } else
      compiler::forEachField(value, *this);
  }
  static constexpr uint32_t kMaxListLength = 4096;
};

// A list of buffer arguments of `k`; false if an index names anything else.
bool validBufferList(const KernelDescription &k,
                     const std::vector<uint32_t> &list) {
  for (uint32_t index : list)
    if (index >= k.arguments.size() ||
        k.arguments[index].kind != ArgumentKind::Buffer)
      return false;
  return true;
}

template <typename Enum> bool atMost(Enum value, Enum last) {
  return static_cast<uint32_t>(value) <= static_cast<uint32_t>(last);
}

bool validKernel(const KernelDescription &k, std::string &why) {
  bool ok = !k.name.empty() &&
            atMost(k.plan.path, compiler::ExecutionPath::Fibers) &&
            validBufferList(k, k.read_through_sources) &&
            validBufferList(k, k.written_buffers);
  for (const KernelArgument &a : k.arguments)
    ok = ok && atMost(a.kind, ArgumentKind::Pipe) &&
         atMost(a.address_space, AddressSpace::Local) &&
         atMost(a.access, AccessQualifier::ReadWrite);
  if (!ok) {
    why = "malformed description of kernel '" + k.name + "'";
    return false;
  }
  // clSetKernelArg writes arguments at these offsets: they must fit.
  for (const KernelArgument &a : k.arguments) {
    uint32_t stored = a.kind == ArgumentKind::Value ? a.size : 8;
    if (uint64_t{a.offset} + stored > k.argument_block_size ||
        (a.kind != ArgumentKind::Value && a.kind != ArgumentKind::LocalBuffer &&
         a.size != 8)) {
      why = "argument '" + a.name + "' of kernel '" + k.name +
            "' lies outside its argument block";
      return false;
    }
  }
  return true;
}

bool isHostSharedObject(const std::vector<unsigned char> &so) {
  if (so.size() < sizeof(Elf64_Ehdr))
    return false;
  Elf64_Ehdr header;
  std::memcpy(&header, so.data(), sizeof(header));
  return std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 &&
         header.e_ident[EI_CLASS] == ELFCLASS64 &&
         header.e_ident[EI_DATA] == ELFDATA2LSB && header.e_type == ET_DYN &&
         header.e_machine == EM_X86_64;
}

bool isBitcode(const std::vector<unsigned char> &bitcode) {
  return bitcode.size() >= 4 && bitcode[0] == 'B' && bitcode[1] == 'C' &&
         bitcode[2] == 0xc0 && bitcode[3] == 0xde;
}

// Each part native code or bitcode, and each kernel in exactly one part.
bool validParts(const ProgramImage &image, std::string &why) {
  if (image.parts.empty()) {
    why = "the program binary holds no native code";
    return false;
  }
  std::map<std::string, int> parts_of;
  for (const KernelDescription &k : image.kernels)
    parts_of[k.name] = 0;
  for (const ProgramImagePart &part : image.parts) {
    if (part.deferred() ? !isBitcode(part.bitcode)
                        : !isHostSharedObject(part.shared_object) ||
                              !part.bitcode.empty()) {
      why = "the program binary holds no x86-64 shared object";
      return false;
    }
    for (const std::string &name : part.kernels) {
      auto found = parts_of.find(name);
      if (found == parts_of.end() || ++found->second > 1) {
        why = "malformed kernel table";
        return false;
      }
    }
  }
  for (const auto &[name, parts] : parts_of)
    if (parts != 1) {
      why = "the program binary lacks the code of kernel '" + name + "'";
      return false;
    }
  return true;
}

uint64_t checksum(const unsigned char *data, size_t size) {
  Hash128 hash;
  hash.add(data, size);
  return hash.low();
}

} // namespace

std::vector<unsigned char> serializeProgramImage(const ProgramImage &image) {
  Writer w;
  w.scalar(Header{});
  w.scalar(static_cast<uint32_t>(image.kind));
  w.bytes(image.bitcode.data(), image.bitcode.size());
  w.string(image.target);
  w.string(image.build_options);
  w.string(image.build_log);
  w.scalar(image.global_variable_bytes);
  w.scalar<uint32_t>(static_cast<uint32_t>(image.kernels.size()));
  for (const KernelDescription &k : image.kernels)
    compiler::forEachField(k, FieldWriter{w});
  w.scalar<uint32_t>(static_cast<uint32_t>(image.parts.size()));
  for (const ProgramImagePart &part : image.parts) {
    w.scalar<uint32_t>(static_cast<uint32_t>(part.kernels.size()));
    for (const std::string &name : part.kernels)
      w.string(name);
    w.bytes(part.shared_object.data(), part.shared_object.size());
    w.bytes(part.bitcode.data(), part.bitcode.size());
    w.scalar<uint8_t>(part.optimize);
  }

  std::vector<unsigned char> &out = w.result();
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof(kMagic));
  header.version = kFormatVersion;
  header.payload_size = out.size() - sizeof(Header);
  header.payload_checksum =
      checksum(out.data() + sizeof(Header), header.payload_size);
  std::memcpy(out.data(), &header, sizeof(header));
  return std::move(out);
}

bool parseProgramImage(const unsigned char *data, size_t size,
                       ProgramImage &image, std::string &why) {
  Header header;
  if (!data || size < sizeof(header)) {
    why = "too short to be a Weft program binary";
    return false;
  }
  std::memcpy(&header, data, sizeof(header));
  if (std::memcmp(header.magic, kMagic, sizeof(kMagic)) != 0) {
    why = "not a Weft program binary";
    return false;
  }
  if (header.version != kFormatVersion) {
    why = "a Weft program binary of another format version";
    return false;
  }
  if (header.payload_size != size - sizeof(header) ||
      header.payload_checksum !=
          checksum(data + sizeof(header), header.payload_size)) {
    why = "the program binary is truncated or corrupted";
    return false;
  }
  Reader r(data + sizeof(header), header.payload_size);
  uint32_t kind = r.scalar<uint32_t>();
  image.kind = static_cast<ProgramImageKind>(kind);
  image.bitcode = r.bytes();
  if (!r.ok() || kind > static_cast<uint32_t>(ProgramImageKind::Library)) {
    why = "malformed program binary";
    return false;
  }
  image.target = r.string();
  image.build_options = r.string();
  image.build_log = r.string();
  image.global_variable_bytes = r.scalar<uint64_t>();
  uint32_t count = r.scalar<uint32_t>();
  if (!r.ok() || count > 65536) {
    why = "malformed kernel table";
    return false;
  }
  image.kernels.resize(count);
  for (KernelDescription &k : image.kernels) {
    compiler::forEachField(k, FieldReader{r});
    if (!r.ok()) {
      why = "malformed kernel table";
      return false;
    }
    if (!validKernel(k, why))
      return false;
  }
  uint32_t part_count = r.scalar<uint32_t>();
  if (!r.ok() || part_count > count + 1) {
    why = "malformed program binary";
    return false;
  }
  image.parts.resize(part_count);
  for (ProgramImagePart &part : image.parts) {
    uint32_t names = r.scalar<uint32_t>();
    if (!r.ok() || names > count) {
      why = "malformed program binary";
      return false;
    }
    for (uint32_t i = 0; i < names; ++i)
      part.kernels.push_back(r.string());
    part.shared_object = r.bytes();
    part.bitcode = r.bytes();
    part.optimize = r.scalar<uint8_t>() != 0;
  }
  if (!r.ok() || !r.atEnd()) {
    why = "malformed program binary";
    return false;
  }
  if (image.kind == ProgramImageKind::Executable)
    return validParts(image, why);
  if (!isBitcode(image.bitcode)) {
    why = "the program binary holds no LLVM bitcode";
    return false;
  }
  return true;
}

} // namespace weft
