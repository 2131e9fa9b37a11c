#include "runtime/program_binary.h"

#include "runtime/hash.h"

#include <elf.h>

#include <cstring>
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
constexpr uint32_t kFormatVersion = 14;

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

void writeKernel(Writer &w, const KernelDescription &k) {
  w.string(k.name);
  w.string(k.attributes);
  w.scalar<uint32_t>(static_cast<uint32_t>(k.arguments.size()));
  for (const KernelArgument &a : k.arguments) {
    w.string(a.name);
    w.string(a.type_name);
    w.scalar(static_cast<uint32_t>(a.kind));
    w.scalar(static_cast<uint32_t>(a.address_space));
    w.scalar(static_cast<uint32_t>(a.access));
    w.scalar(a.type_qualifiers);
    w.scalar(a.size);
    w.scalar(a.alignment);
    w.scalar(a.offset);
  }
  w.scalar(k.argument_block_size);
  for (uint64_t v : k.reqd_work_group_size)
    w.scalar(v);
  for (uint64_t v : k.work_group_size_hint)
    w.scalar(v);
  w.scalar(k.static_local_memory);
  w.scalar(k.private_memory);
  w.scalar(k.group_entry_frame);
  w.scalar(k.preferred_work_group_multiple);
  w.scalar<uint8_t>(k.reaches_barrier);
  w.scalar<uint8_t>(k.split_at_barriers);
  w.string(k.split_failure);
  w.string(k.work_item_vectorization);
  w.scalar<uint8_t>(k.uniform_work_group_size);
  for (const std::vector<uint32_t> *list :
       {&k.read_through_sources, &k.written_buffers}) {
    w.scalar<uint32_t>(static_cast<uint32_t>(list->size()));
    for (uint32_t index : *list)
      w.scalar(index);
  }
  w.scalar(k.read_through_max_local_size);
  w.string(k.async_copy_read_through);
}

// A list of buffer arguments of `k`; false if an index names anything else.
bool readBufferList(Reader &r, const KernelDescription &k,
                    std::vector<uint32_t> &list) {
  uint32_t count = r.scalar<uint32_t>();
  if (!r.ok() || count > k.arguments.size())
    return false;
  list.resize(count);
  for (uint32_t &index : list) {
    index = r.scalar<uint32_t>();
    if (!r.ok() || index >= k.arguments.size() ||
        k.arguments[index].kind != ArgumentKind::Buffer)
      return false;
  }
  return true;
}

// Enumerations come from outside: reject values the runtime cannot handle.
template <typename Enum> bool readEnum(Reader &r, Enum &out, uint32_t limit) {
  uint32_t value = r.scalar<uint32_t>();
  out = static_cast<Enum>(value);
  return value <= limit;
}

bool readKernel(Reader &r, KernelDescription &k, std::string &why) {
  k.name = r.string();
  k.attributes = r.string();
  uint32_t count = r.scalar<uint32_t>();
  if (!r.ok() || count > 4096) {
    why = "malformed kernel table";
    return false;
  }
  k.arguments.resize(count);
  bool enums_ok = true;
  for (KernelArgument &a : k.arguments) {
    a.name = r.string();
    a.type_name = r.string();
    enums_ok &= readEnum(r, a.kind, static_cast<uint32_t>(ArgumentKind::Pipe));
    enums_ok &= readEnum(r, a.address_space,
                         static_cast<uint32_t>(AddressSpace::Local));
    enums_ok &= readEnum(r, a.access,
                         static_cast<uint32_t>(AccessQualifier::ReadWrite));
    a.type_qualifiers = r.scalar<uint32_t>();
    a.size = r.scalar<uint32_t>();
    a.alignment = r.scalar<uint32_t>();
    a.offset = r.scalar<uint32_t>();
  }
  k.argument_block_size = r.scalar<uint32_t>();
  for (uint64_t &v : k.reqd_work_group_size)
    v = r.scalar<uint64_t>();
  for (uint64_t &v : k.work_group_size_hint)
    v = r.scalar<uint64_t>();
  k.static_local_memory = r.scalar<uint64_t>();
  k.private_memory = r.scalar<uint64_t>();
  k.group_entry_frame = r.scalar<uint64_t>();
  k.preferred_work_group_multiple = r.scalar<uint32_t>();
  k.reaches_barrier = r.scalar<uint8_t>() != 0;
  k.split_at_barriers = r.scalar<uint8_t>() != 0;
  k.split_failure = r.string();
  k.work_item_vectorization = r.string();
  k.uniform_work_group_size = r.scalar<uint8_t>() != 0;
  bool lists_ok = enums_ok && readBufferList(r, k, k.read_through_sources) &&
                  readBufferList(r, k, k.written_buffers);
  k.read_through_max_local_size = r.scalar<uint64_t>();
  k.async_copy_read_through = r.string();
  if (!r.ok() || !enums_ok || !lists_ok || k.name.empty()) {
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
    writeKernel(w, k);
  w.bytes(image.shared_object.data(), image.shared_object.size());

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
  for (KernelDescription &k : image.kernels)
    if (!readKernel(r, k, why))
      return false;
  image.shared_object = r.bytes();
  if (!r.ok() || !r.atEnd()) {
    why = "malformed program binary";
    return false;
  }
  if (image.kind == ProgramImageKind::Executable) {
    if (!isHostSharedObject(image.shared_object)) {
      why = "the program binary holds no x86-64 shared object";
      return false;
    }
  } else if (image.bitcode.size() < 4 || image.bitcode[0] != 'B' ||
             image.bitcode[1] != 'C' || image.bitcode[2] != 0xc0 ||
             image.bitcode[3] != 0xde) {
    why = "the program binary holds no LLVM bitcode";
    return false;
  }
  return true;
}

} // namespace weft
