/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_INT_HEADER_H
#define ROCE_INT_HEADER_H

#include "ns3/trailer.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief One switch hop of in-band telemetry, decoded (RoceIntHeader::GetHop).
 */
struct IntHopRecord
{
    uint64_t timeNs{0};    //!< when the frame left the egress queue, ns, modulo 2^48
    uint64_t txBytes{0};   //!< wire bytes the egress port had sent, modulo 2^48
    uint64_t qlenBytes{0}; //!< egress queue left behind the frame, bytes (64-byte units)
    uint64_t rateBps{0};   //!< egress link rate, bit/s (100 Mb/s units)
};

/**
 * @ingroup llm-fabric
 * @brief llm-fabric's in-band network telemetry (INT) extension header, as HPCC uses it: one
 * record per switch hop, filled in place by the switches (IntStamper).
 *
 * Fixed size: 84 bytes, room for MAX_HOPS = 5 hops of 16 bytes after a 4-byte header (a
 * three-tier fat-tree path has 5 switches). It sits at the end of the InfiniBand payload,
 * between the RDMA payload (or the AETH of an acknowledgement) and the ICRC, and a BTH bit says
 * it is there (IbBthHeader::SetTelemetryFill on data, SetTelemetryEcho on the ACKs that carry it
 * back). Because it is last, a switch finds it at a fixed distance from the end of the frame
 * whatever the opcode, and Wireshark's InfiniBand dissector, which does not know it, shows it as
 * part of the payload without complaint; doc/wireshark/llmfabric.lua decodes it. In ns-3 terms
 * it is a Trailer (added before the ICRC trailer).
 *
 * Wire layout, multi-byte fields big-endian:
 * @verbatim
   byte 0       nhop: records filled, 0 to 5
   byte 1       flags: bit 0 overflow (a switch found all 5 records filled); bits 7-1 zero
   bytes 2-3    reserved, zero
   bytes 4-83   5 records of 16 bytes; record i (i = 0 for the first switch) at 4 + 16 i:
     bytes 0-5    ts: time the frame left the egress queue, ns, modulo 2^48
     bytes 6-7    rate: the egress link's rate, in units of 100 Mb/s
     bytes 8-13   txbytes: wire bytes the egress port had sent before this frame (frames with
                  FCS, preamble and inter-frame gap), modulo 2^48
     bytes 14-15  qlen: bytes of the egress queue left behind the frame, in units of 64 bytes
                  (rounded down; 0xFFFF at most, 4 MiB)
   @endverbatim
 *
 * A sender reserves it as 84 zero bytes (no hop, no overflow): the sending NIC's ICRC covers
 * zeros there, and each switch that fills a record patches the ICRC for the bytes it changed
 * (RoceIcrcTrailer::Patch), so the ICRC stays right on every link.
 */
class RoceIntHeader : public Trailer
{
  public:
    /// Bytes of the header before the records.
    static constexpr uint32_t HEADER_BYTES = 4;
    /// Bytes of one hop record.
    static constexpr uint32_t RECORD_BYTES = 16;
    /// Hop records the header has room for.
    static constexpr uint32_t MAX_HOPS = 5;
    /// Size on the wire.
    static constexpr uint32_t SIZE = HEADER_BYTES + MAX_HOPS * RECORD_BYTES;
    /// The unit of qlen, bytes.
    static constexpr uint64_t QLEN_UNIT_BYTES = 64;
    /// The unit of rate, bit/s.
    static constexpr uint64_t RATE_UNIT_BPS = 100000000;
    /// Flags bit: a switch found no free record.
    static constexpr uint8_t OVERFLOW_FLAG = 0x01;

    /// An empty header: no hop, as a sender reserves it (84 zero bytes).
    RoceIntHeader();

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;

    /**
     * Write the header in the SIZE bytes before the end of the buffer.
     * @param end an iterator at the end of the buffer.
     */
    void Serialize(Buffer::Iterator end) const override;

    /**
     * Read the header from the SIZE bytes before the end of the buffer.
     * @param end an iterator at the end of the buffer.
     * @return SIZE.
     */
    uint32_t Deserialize(Buffer::Iterator end) override;

    /// @return the records filled (nhop), at most MAX_HOPS.
    uint32_t GetHopCount() const;

    /// @return whether a switch found all records filled.
    bool GetOverflow() const;

    /**
     * @param i a hop, below GetHopCount().
     * @return its record, decoded.
     */
    IntHopRecord GetHop(uint32_t i) const;

    /**
     * Decode every filled record.
     * @param[out] hops at least MAX_HOPS records.
     * @return the number decoded (GetHopCount()).
     */
    uint32_t GetHops(IntHopRecord* hops) const;

    /**
     * Fill the next record, or set the overflow flag if none is free.
     * @param timeNs the dequeue time, ns (kept modulo 2^48).
     * @param txBytes the port's wire bytes sent (kept modulo 2^48).
     * @param qlenBytes the queue left behind, bytes (kept in 64-byte units, at most 0xFFFF).
     * @param rateBps the link rate, bit/s (kept in 100 Mb/s units, rounded, at most 0xFFFF).
     * @return true if a record was filled.
     */
    bool AddHop(uint64_t timeNs, uint64_t txBytes, uint64_t qlenBytes, uint64_t rateBps);

    /// @return the header's bytes as on the wire.
    const std::array<uint8_t, SIZE>& GetBytes() const;

  private:
    std::array<uint8_t, SIZE> m_bytes; //!< the wire bytes
};

} // namespace ns3

#endif /* ROCE_INT_HEADER_H */
