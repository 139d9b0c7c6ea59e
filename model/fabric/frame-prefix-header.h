/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FRAME_PREFIX_HEADER_H
#define FRAME_PREFIX_HEADER_H

#include "ns3/header.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The first bytes of a frame as raw bytes, not parsed: what a switch removes and adds
 * back to patch fields at fixed offsets (the IPv4 TTL and header checksum) without
 * deserializing headers.
 *
 * RemoveHeader copies GetSize() bytes out of the packet's buffer, the caller patches them
 * (GetBytes), and AddHeader writes them back unchanged otherwise.
 */
class FramePrefixHeader : public Header
{
  public:
    /// The most bytes it holds: a tagged Ethernet header (18) and a 20-byte IPv4 header.
    static constexpr uint32_t MAX_SIZE = 38;

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @param size how many bytes it holds (1 to MAX_SIZE); aborts otherwise.
     */
    explicit FramePrefixHeader(uint32_t size = MAX_SIZE);

    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// @return the bytes, to read or patch (GetSize() of them are meaningful).
    uint8_t* GetBytes();

    /// @return how many bytes it holds.
    uint32_t GetSize() const;

  private:
    std::array<uint8_t, MAX_SIZE> m_bytes; //!< the bytes
    uint32_t m_size;                       //!< how many of them
};

} // namespace ns3

#endif /* FRAME_PREFIX_HEADER_H */
