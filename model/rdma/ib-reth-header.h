/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_RETH_HEADER_H
#define IB_RETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The InfiniBand RDMA Extended Transport Header (RETH, IBA specification volume 1, section
 * 9.3.3), which follows the BTH in RDMA WRITE First, WRITE Only (with or without immediate) and
 * RDMA READ Request packets.
 *
 * Wire layout, 16 bytes, big-endian:
 * @verbatim
   bytes 0-7   Virtual Address (64 bits)
   bytes 8-11  R_Key (32 bits)
   bytes 12-15 DMA Length (32 bits)
   @endverbatim
 */
class IbRethHeader : public Header
{
  public:
    /// Size of the header on the wire, in bytes.
    static constexpr uint32_t SIZE = 16;

    /**
     * Create a header with every field zero.
     */
    IbRethHeader();

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @return the TypeId of this object (IbRethHeader).
     */
    TypeId GetInstanceTypeId() const override;

    /**
     * Print the fields in a readable form.
     * @param os the output stream.
     */
    void Print(std::ostream& os) const override;

    /**
     * @return the size of the header on the wire (SIZE bytes).
     */
    uint32_t GetSerializedSize() const override;

    /**
     * Write the header in wire format.
     * @param start where to write it.
     */
    void Serialize(Buffer::Iterator start) const override;

    /**
     * Read the header from wire format.
     * @param start where to read it from.
     * @return the number of bytes read: SIZE, or 0 (and the header as default-constructed)
     * when fewer than SIZE bytes remain.
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * Write the header in wire format, as Serialize does, to memory: for a sender that builds
     * a packet's headers in one array.
     * @param out where to write its SIZE bytes.
     */
    void Write(uint8_t* out) const;

    /**
     * @param virtualAddress the virtual address of the first byte of the remote buffer.
     */
    void SetVirtualAddress(uint64_t virtualAddress);
    /**
     * @return the virtual address of the first byte of the remote buffer.
     */
    uint64_t GetVirtualAddress() const;

    /**
     * @param rkey the Remote Key that authorizes access to the remote buffer.
     */
    void SetRkey(uint32_t rkey);
    /**
     * @return the Remote Key.
     */
    uint32_t GetRkey() const;

    /**
     * @param dmaLength the length in bytes of the whole RDMA operation.
     */
    void SetDmaLength(uint32_t dmaLength);
    /**
     * @return the length in bytes of the whole RDMA operation.
     */
    uint32_t GetDmaLength() const;

  private:
    uint64_t m_virtualAddress; ///< Virtual Address of the remote buffer.
    uint32_t m_rkey;           ///< Remote Key (R_Key).
    uint32_t m_dmaLength;      ///< DMA Length in bytes.
};

} // namespace ns3

#endif /* IB_RETH_HEADER_H */
