// The SVM allocation registry (runtime/svm.h) and the SVM commands' records
// (runtime/svm_commands.h): finding the allocation that holds a pointer,
// and which commands on host memory must keep their order.
#include "runtime/svm.h"
#include "runtime/svm_commands.h"
#include "runtime_fixture.h"

#include <cstdint>
#include <cstring>

using namespace weft;

TEST_CASE("the registry finds allocations by any pointer into them",
          "[runtime][svm]") {
  SvmRegistry registry;
  auto *a = static_cast<char *>(registry.allocate(CL_MEM_READ_WRITE, 100, 64));
  auto *b = static_cast<char *>(
      registry.allocate(CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 4096));
  REQUIRE(a);
  REQUIRE(b);
  CHECK(reinterpret_cast<uintptr_t>(a) % 64 == 0);
  CHECK(reinterpret_cast<uintptr_t>(b) % 4096 == 0);
  CHECK(registry.count() == 2);
  auto found = registry.find(a + 99);
  REQUIRE(found);
  CHECK(found->base == a);
  CHECK(found->size == 100);
  CHECK_FALSE(registry.find(a + 100)); // one past the end
  CHECK(registry.find(a + 50, 50));    // a range up to the end
  CHECK_FALSE(registry.find(a + 50, 51));
  CHECK_FALSE(registry.find(a + 50, SIZE_MAX)); // no overflow
  CHECK(registry.find(b)->flags == CL_MEM_SVM_FINE_GRAIN_BUFFER);
  int elsewhere = 0;
  CHECK_FALSE(registry.find(&elsewhere));
  CHECK_FALSE(registry.find(nullptr));
  // Only an allocation's start frees it.
  CHECK_FALSE(registry.free(a + 1));
  CHECK_FALSE(registry.free(&elsewhere));
  CHECK(registry.free(a));
  CHECK_FALSE(registry.free(a));
  CHECK_FALSE(registry.find(a));
  CHECK(registry.count() == 1);
  // b goes with the registry.
}

TEST_CASE_METHOD(RuntimeFixture, "allocations hold their context",
                 "[runtime][svm]") {
  void *p = svmAllocate(*context, CL_MEM_READ_WRITE, 64, 128);
  REQUIRE(p);
  CHECK(context->svm().count() == 1);
  svmFree(*context, p);
  CHECK(context->svm().count() == 0);
}

TEST_CASE_METHOD(RuntimeFixture, "SVM commands order by the host bytes",
                 "[runtime][svm][command]") {
  char memory[256];
  char other[256];
  Command copy_in = svmMemcpyCommand(memory, other, 64);
  CHECK(copy_in.type() == CL_COMMAND_SVM_MEMCPY);
  // Reads of the same bytes never conflict; a write does.
  CHECK_FALSE(svmMapCommand(other, 64, CL_MAP_READ)
                  .conflictsWith(svmMapCommand(other, 64, CL_MAP_READ)));
  CHECK(copy_in.conflictsWith(svmMapCommand(memory + 32, 8, CL_MAP_READ)));
  CHECK(copy_in.conflictsWith(svmMapCommand(other, 8, CL_MAP_WRITE)));
  CHECK_FALSE(
      copy_in.conflictsWith(svmMapCommand(memory + 64, 8, CL_MAP_READ)));
  char pattern = 1;
  Command fill = svmFillCommand(memory + 128, &pattern, 1, 128);
  CHECK(fill.type() == CL_COMMAND_SVM_MEMFILL);
  CHECK_FALSE(fill.conflictsWith(copy_in));
  CHECK(fill.conflictsWith(svmUnmapCommand(memory, MemoryAccess::kToEnd)));
  // A kernel following SVM pointers conflicts with every command that
  // touches memory, buffers included.
  Command kernel(CL_COMMAND_NDRANGE_KERNEL);
  kernel.writesAnyHostMemory();
  CHECK(kernel.conflictsWith(fill));
  auto buf = buffer(64);
  Command read_buffer(CL_COMMAND_READ_BUFFER);
  read_buffer.reads(*buf);
  CHECK(kernel.conflictsWith(read_buffer));
  // Running: the fill and the copy do what they say.
  std::memset(memory, 0, sizeof(memory));
  std::memset(other, 5, sizeof(other));
  REQUIRE(fill.execute() == CL_SUCCESS);
  REQUIRE(copy_in.execute() == CL_SUCCESS);
  CHECK(memory[0] == 5);
  CHECK(memory[63] == 5);
  CHECK(memory[64] == 0);
  CHECK(memory[128] == 1);
  CHECK(memory[255] == 1);
}
