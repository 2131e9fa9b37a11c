#include "compiler/analysis/kernel_metadata.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <type_traits>

namespace weft::compiler {
namespace {

constexpr const char *kRecordsName = "weft.kernels";

template <typename T> struct IsVector : std::false_type {};
template <typename T> struct IsVector<std::vector<T>> : std::true_type {};

// Writes a description as a flat tuple of (field name, value) pairs in the
// order of its field list; nested lists and structures are tuples again.
struct MetadataWriter {
  llvm::LLVMContext &ctx;
  std::vector<llvm::Metadata *> fields;

  template <typename T> llvm::Metadata *value(const T &v) {
    if constexpr (std::is_same_v<T, std::string>)
      return llvm::MDString::get(ctx, v);
    else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>)
      return llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
          llvm::Type::getInt64Ty(ctx), static_cast<uint64_t>(v)));
    else if constexpr (std::is_array_v<T> || IsVector<T>::value) {
      std::vector<llvm::Metadata *> elements;
      for (const auto &element : v)
        elements.push_back(value(element));
      return llvm::MDTuple::get(ctx, elements);
    } else {
      MetadataWriter nested{ctx, {}};
      forEachField(v, nested);
      return llvm::MDTuple::get(ctx, nested.fields);
    }
  }
  template <typename T> void operator()(const char *name, const T &v) {
    fields.push_back(llvm::MDString::get(ctx, name));
    fields.push_back(value(v));
  }
};

struct MetadataReader {
  const llvm::MDTuple *tuple;
  unsigned next = 1; // operand 2i is the name, 2i+1 the value

  template <typename T> static void value(const llvm::Metadata *md, T &v) {
    if constexpr (std::is_same_v<T, std::string>) {
      if (const auto *s = llvm::dyn_cast_or_null<llvm::MDString>(md))
        v = s->getString().str();
    } else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) {
      if (const auto *c = llvm::dyn_cast_or_null<llvm::ConstantAsMetadata>(md))
        if (const auto *i = llvm::dyn_cast<llvm::ConstantInt>(c->getValue()))
          v = static_cast<T>(i->getZExtValue());
    } else if constexpr (std::is_array_v<T>) {
      const auto *t = llvm::dyn_cast_or_null<llvm::MDTuple>(md);
      for (unsigned i = 0; t && i < t->getNumOperands() && i < std::size(v);
           ++i)
        value(t->getOperand(i).get(), v[i]);
    } else if constexpr (IsVector<T>::value) {
      const auto *t = llvm::dyn_cast_or_null<llvm::MDTuple>(md);
      v.resize(t ? t->getNumOperands() : 0);
      for (unsigned i = 0; i < v.size(); ++i)
        value(t->getOperand(i).get(), v[i]);
    } else {
      MetadataReader nested{llvm::dyn_cast_or_null<llvm::MDTuple>(md)};
      if (nested.tuple)
        forEachField(v, nested);
    }
  }
  template <typename T> void operator()(const char *, T &v) {
    if (next < tuple->getNumOperands())
      value(tuple->getOperand(next).get(), v);
    next += 2;
  }
};

// One line per field, nested structures indented: what print<weft-kernels>
// shows and IR tests check.
struct TextWriter {
  llvm::raw_ostream &out;
  std::string indent;

  template <typename T> void value(const T &v) {
    if constexpr (std::is_same_v<T, std::string>)
      out << '"' << v << '"';
    else if constexpr (std::is_same_v<T, ExecutionPath>)
      out << executionPathName(v);
    else if constexpr (std::is_enum_v<T>)
      out << static_cast<uint64_t>(v);
    else if constexpr (std::is_same_v<T, bool>)
      out << (v ? "true" : "false");
    else if constexpr (std::is_integral_v<T>)
      out << static_cast<uint64_t>(v);
    else if constexpr (std::is_array_v<T> || IsVector<T>::value) {
      out << '[';
      bool first = true;
      for (const auto &element : v) {
        if (!first)
          out << ", ";
        first = false;
        if constexpr (std::is_arithmetic_v<std::decay_t<decltype(element)>> ||
                      std::is_same_v<std::decay_t<decltype(element)>,
                                     std::string>)
          value(element);
        else {
          out << "{";
          TextWriter nested{out, indent + "    "};
          forEachField(element, nested);
          out << "\n" << indent << "  }";
        }
      }
      out << ']';
    } else {
      TextWriter nested{out, indent + "  "};
      forEachField(v, nested);
    }
  }
  template <typename T> void operator()(const char *name, const T &v) {
    out << "\n" << indent << "  " << name << ": ";
    value(v);
  }
};

} // namespace

std::vector<KernelRecord> readKernelRecords(const llvm::Module &module) {
  std::vector<KernelRecord> records;
  const llvm::NamedMDNode *list = module.getNamedMetadata(kRecordsName);
  if (!list)
    return records;
  for (const llvm::MDNode *node : list->operands()) {
    KernelRecord record;
    if (node->getNumOperands() != 2)
      continue;
    if (const auto *body =
            llvm::dyn_cast_or_null<llvm::ValueAsMetadata>(node->getOperand(0)))
      record.body = llvm::dyn_cast<llvm::Function>(body->getValue());
    if (const auto *fields =
            llvm::dyn_cast_or_null<llvm::MDTuple>(node->getOperand(1).get())) {
      MetadataReader reader{fields};
      forEachField(record.description, reader);
    }
    records.push_back(std::move(record));
  }
  return records;
}

void writeKernelRecords(llvm::Module &module,
                        const std::vector<KernelRecord> &records) {
  eraseKernelRecords(module);
  llvm::LLVMContext &ctx = module.getContext();
  llvm::NamedMDNode *list = module.getOrInsertNamedMetadata(kRecordsName);
  for (const KernelRecord &record : records) {
    MetadataWriter writer{ctx, {}};
    forEachField(record.description, writer);
    llvm::Metadata *body =
        record.body ? llvm::ValueAsMetadata::get(record.body) : nullptr;
    list->addOperand(llvm::MDTuple::get(
        ctx, {body, llvm::MDTuple::get(ctx, writer.fields)}));
  }
}

void eraseKernelRecords(llvm::Module &module) {
  if (llvm::NamedMDNode *list = module.getNamedMetadata(kRecordsName))
    module.eraseNamedMetadata(list);
}

llvm::Function *derivedFunction(const llvm::Function &body,
                                llvm::StringRef suffix) {
  return body.getParent()->getFunction((body.getName() + suffix).str());
}

void reportBuildError(llvm::Module &module, const llvm::Twine &message) {
  module.getContext().emitError(message);
}

llvm::PreservedAnalyses PrintKernelsPass::run(llvm::Module &module,
                                              llvm::ModuleAnalysisManager &) {
  for (const KernelRecord &record : readKernelRecords(module)) {
    out_ << "kernel " << record.description.name << ": "
         << describePlan(record.description.plan);
    TextWriter text{out_, ""};
    forEachField(record.description, text);
    out_ << "\n";
  }
  return llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
