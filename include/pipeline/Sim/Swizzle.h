//===- Swizzle.h - shared-memory swizzle of TMA and the MMAs ----*- C++ -*-===//
//
// The swizzle TMA writes and the MMAs' shared-memory descriptors read: in
// each span of 8 rows of the swizzle width (256, 512 or 1024 bytes), the
// 16-byte chunk index (address bits 4 and up) is XORed with the row index
// (address bits 7 and up). The pattern is a function of the shared-memory
// address itself, so a tile must be aligned to its span.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_SIM_SWIZZLE_H
#define PIPELINE_SIM_SWIZZLE_H

#include <cstdint>

namespace pmlir::sim {

/// The swizzle width in bytes: 0 (none), 32, 64 or 128.
inline uint64_t swizzleAddress(uint64_t address, unsigned swizzleBytes) {
  switch (swizzleBytes) {
  case 32: // bit 4 ^= bit 7
    return address ^ ((address >> 3) & 0x10);
  case 64: // bits 4-5 ^= bits 7-8
    return address ^ ((address >> 3) & 0x30);
  case 128: // bits 4-6 ^= bits 7-9
    return address ^ ((address >> 3) & 0x70);
  default:
    return address;
  }
}

} // namespace pmlir::sim

#endif // PIPELINE_SIM_SWIZZLE_H
