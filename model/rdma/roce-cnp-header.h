/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_CNP_HEADER_H
#define ROCE_CNP_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The body of a RoCEv2 Congestion Notification Packet (CNP, IBTA RoCEv2 annex A17.9.2): the 16
 * reserved bytes that follow the BTH.
 *
 * A CNP is a BTH with opcode IbBthHeader::CNP (0x81), BECN set and DestQP naming the QP of the
 * congested flow's sender, then this header, then the ICRC. The 16 bytes are written as zero;
 * on reception their content is skipped.
 */
class RoceCnpHeader : public Header
{
  public:
    /// Size of the header on the wire, in bytes.
    static constexpr uint32_t SIZE = 16;

    /**
     * Create the header.
     */
    RoceCnpHeader();

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @return the TypeId of this object (RoceCnpHeader).
     */
    TypeId GetInstanceTypeId() const override;

    /**
     * Print the header in a readable form.
     * @param os the output stream.
     */
    void Print(std::ostream& os) const override;

    /**
     * @return the size of the header on the wire (SIZE bytes).
     */
    uint32_t GetSerializedSize() const override;

    /**
     * Write SIZE zero bytes.
     * @param start where to write them.
     */
    void Serialize(Buffer::Iterator start) const override;

    /**
     * Skip SIZE reserved bytes.
     * @param start where to read them from.
     * @return the number of bytes read: SIZE, or 0 (and the header as default-constructed)
     * when fewer than SIZE bytes remain.
     */
    uint32_t Deserialize(Buffer::Iterator start) override;
};

} // namespace ns3

#endif /* ROCE_CNP_HEADER_H */
