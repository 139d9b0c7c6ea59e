/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_ICRC_TRAILER_H
#define ROCE_ICRC_TRAILER_H

#include "ns3/packet.h"
#include "ns3/trailer.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The 4-byte invariant CRC (ICRC) that ends every RoCEv2 packet, after the payload and pad.
 *
 * The ICRC (IBTA RoCEv2 annex A17.3.3, IBA 7.8.1) is a CRC-32 with the Ethernet polynomial,
 * reflected input and output, initial value all ones and final complement. It covers the fields
 * that no switch or router changes in flight, with every variant field replaced by ones:
 *
 * - 8 bytes of 0xFF, standing for the masked InfiniBand LRH;
 * - the IPv4 header (options included, length from IHL) with the type of service (byte 1, DSCP
 *   and ECN), the TTL (byte 8) and the header checksum (bytes 10-11) set to 0xFF;
 * - the UDP header with its checksum (bytes 6-7) set to 0xFF;
 * - the BTH with byte 4 (FECN, BECN and reserved bits) set to 0xFF;
 * - every following byte unchanged (extension headers, payload, pad), up to the ICRC.
 *
 * The CRC value is transmitted least significant byte first: the value 0x39b5b18e appears on
 * the wire as 8e b1 b5 39.
 *
 * As a Trailer, Serialize() and Deserialize() receive an iterator at the END of the buffer.
 */
class RoceIcrcTrailer : public Trailer
{
  public:
    /// Size of the trailer in bytes.
    static constexpr uint32_t ICRC_SIZE = 4;
    /// Size of the IPv4 header without options.
    static constexpr uint32_t IPV4_MIN_HEADER_SIZE = 20;
    /// Size of the UDP header.
    static constexpr uint32_t UDP_HEADER_SIZE = 8;
    /// Size of the InfiniBand base transport header.
    static constexpr uint32_t BTH_SIZE = 12;

    /**
     * Construct a trailer whose ICRC value is zero.
     */
    RoceIcrcTrailer();

    /**
     * Construct a trailer holding a given ICRC value.
     * @param icrc the CRC value.
     */
    explicit RoceIcrcTrailer(uint32_t icrc);

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @param icrc the CRC value (as a number; it is written least significant byte first).
     */
    void SetIcrc(uint32_t icrc);

    /**
     * @return the CRC value (as a number).
     */
    uint32_t GetIcrc() const;

    /**
     * Compute the ICRC of a RoCEv2 packet held in memory.
     * @param ipv4Start the first byte of the IPv4 header.
     * @param length the number of bytes from the IPv4 header up to, but excluding, the ICRC.
     * @return the CRC value, or 0 (with a warning) if the bytes are too short to hold an IPv4
     *         header, a UDP header and a BTH, or do not begin with an IPv4 header.
     */
    static uint32_t Compute(const uint8_t* ipv4Start, uint32_t length);

    /**
     * Compute the ICRC of a RoCEv2 packet.
     * @param packet a packet that begins with the IPv4 header and has no ICRC yet.
     * @return the CRC value, or 0 (with a warning) if the packet is too short or not IPv4.
     */
    static uint32_t Compute(Ptr<const Packet> packet);

    /**
     * Compute the ICRC of a RoCEv2 packet in memory followed by a run of zero bytes (a
     * simulated payload), without the zeros being in memory: appending zeros is a linear map of
     * the CRC register, applied in O(log n).
     * @param ipv4Start the first byte of the IPv4 header.
     * @param length the bytes in memory, from the IPv4 header on (at least IPv4, UDP and BTH).
     * @param zeroBytes how many zero bytes follow them, up to the ICRC.
     * @return the CRC value, equal to Compute over the whole packet; 0 as Compute on errors.
     */
    static uint32_t Compute(const uint8_t* ipv4Start, uint32_t length, uint64_t zeroBytes);

    /**
     * Compute the ICRC of a RoCEv2 packet whose last bytes are known to be zeros, reading only
     * the bytes before them (the fast path of the simulated transport, whose payloads are made by
     * Create<Packet>(n)). The result is that of Compute(packet) when the tail is zeros; it is
     * wrong if it is not.
     * @param packet a packet that begins with the IPv4 header and has no ICRC yet.
     * @param zeroTailBytes how many of its last bytes are zeros (0: read everything).
     * @return the CRC value, or 0 as Compute.
     */
    static uint32_t Compute(Ptr<const Packet> packet, uint32_t zeroTailBytes);

    /**
     * The ICRC of a packet after some of its bytes changed, from its ICRC before the change,
     * without reading the rest of the packet: the CRC is linear, so the ICRC changes by the CRC
     * (from a zero register, with no final complement) of the XOR of the old and new bytes
     * followed by the bytes after them. Costs O(length + log bytesAfter). The changed bytes must
     * be invariant ones (after the BTH: extension headers, payload, in-band telemetry).
     * @param icrc the ICRC before the change.
     * @param before the changed range as it was.
     * @param after the same range as it is now.
     * @param length the range's length in bytes.
     * @param bytesAfter the bytes from the end of the range to the ICRC.
     * @return the ICRC after the change (what Compute gives on the changed packet).
     */
    static uint32_t Patch(uint32_t icrc,
                          const uint8_t* before,
                          const uint8_t* after,
                          uint32_t length,
                          uint64_t bytesAfter);

    /**
     * Check the ICRC at the end of a RoCEv2 packet.
     * @param packet a packet that begins with the IPv4 header and ends with the ICRC.
     * @return true if the ICRC matches the packet; false if not, or (with a warning) if the
     *         packet is too short or not IPv4.
     */
    static bool Verify(Ptr<const Packet> packet);

    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;

    /**
     * Write the ICRC, least significant byte first, in the last four bytes of the buffer.
     * @param end an iterator at the end of the buffer.
     */
    void Serialize(Buffer::Iterator end) const override;

    /**
     * Read the ICRC, least significant byte first, from the last four bytes of the buffer.
     * @param end an iterator at the end of the buffer.
     * @return ICRC_SIZE.
     */
    uint32_t Deserialize(Buffer::Iterator end) override;

  private:
    uint32_t m_icrc; //!< the CRC value
};

} // namespace ns3

#endif /* ROCE_ICRC_TRAILER_H */
