/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LLM_FABRIC_SHA256_H
#define LLM_FABRIC_SHA256_H

#include <array>
#include <cstdint>
#include <string>

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * SHA-256 (FIPS 180-4, section 6.2; the same algorithm as FIPS 180-2), written for the golden
 * output hashes: ns-3 has no cryptographic hash and the module takes no new dependency for one.
 * Checked against the FIPS 180-2 appendix B vectors by the golden-outputs suite.
 */
class Sha256
{
  public:
    Sha256();

    /**
     * Hash more bytes.
     * @param data the bytes.
     * @param length how many.
     */
    void Update(const uint8_t* data, std::size_t length);

    /**
     * Hash more bytes.
     * @param text the bytes.
     */
    void Update(const std::string& text);

    /**
     * Pad, finish and return the digest; the object must not be updated afterwards.
     * @return the 32-byte digest as 64 lower-case hexadecimal digits.
     */
    std::string HexDigest();

    /**
     * @param text some bytes.
     * @return their SHA-256 as 64 lower-case hexadecimal digits.
     */
    static std::string Hex(const std::string& text);

  private:
    /// Process the 64-byte block in m_block (FIPS 180-4, 6.2.2).
    void Compress();

    std::array<uint32_t, 8> m_h;     //!< the hash value H(i)
    std::array<uint8_t, 64> m_block; //!< the block being filled
    std::size_t m_blockBytes;        //!< bytes in m_block
    uint64_t m_totalBytes;           //!< message length so far
};

} // namespace tests
} // namespace llmfabric

#endif /* LLM_FABRIC_SHA256_H */
