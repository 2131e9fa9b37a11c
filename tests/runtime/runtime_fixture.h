// A context on Weft's device and buffers in it, for tests of runtime/
// objects without the ICD entry points.
#pragma once
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/memory.h"

#include <catch2/catch.hpp>

struct RuntimeFixture {
  weft::Ref<weft::Context> context{
      new weft::Context({&weft::Device::instance()}, {}, nullptr, nullptr),
      /*adopt=*/true};

  weft::Ref<weft::Memory> buffer(size_t size) {
    weft::Memory *memory = weft::Memory::createBuffer(
        *context, CL_MEM_READ_WRITE, size, nullptr, {});
    REQUIRE(memory);
    return weft::Ref<weft::Memory>(memory, /*adopt=*/true);
  }
  weft::Ref<weft::Memory> subBuffer(weft::Memory &parent, size_t origin,
                                    size_t size) {
    weft::Memory *memory =
        weft::Memory::createSubBuffer(parent, CL_MEM_READ_WRITE, origin, size);
    REQUIRE(memory);
    return weft::Ref<weft::Memory>(memory, /*adopt=*/true);
  }
};
