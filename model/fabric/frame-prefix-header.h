/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FRAME_PREFIX_HEADER_H
#define FRAME_PREFIX_HEADER_H

#include "ns3/header.h"
#include "ns3/packet.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The first bytes of a frame or packet as raw bytes, not parsed.
 *
 * A switch patches fields at fixed offsets (the IPv4 TTL, the ECN field, and the header
 * checksum: PatchIpv4Word) without deserializing headers: it copies the frame's first bytes
 * into one of these (GetBytes; RemoveHeader would read them out of the packet's buffer, a
 * byte at a time), patches them, removes that many bytes (Packet::RemoveAtStart) and adds this
 * header in their place. A sender adds a packet's headers, written to memory once, as one of
 * these (RoceV2Packet::Encapsulate) instead of one ns-3 header at a time.
 *
 * With Packet::EnablePrinting, such a packet prints these bytes in hexadecimal, not the
 * headers they hold; with Packet::EnableChecking, a typed RemoveHeader of a header inside them
 * is refused. Read the headers at their offsets (or deserialize a copy) instead.
 */
class FramePrefixHeader : public Header
{
  public:
    /// The most bytes it holds: Ethernet (14), IPv4 (20), UDP (8), a BTH (12) and a RETH (16),
    /// rounded up; a tagged Ethernet header (18) and IPv4 fit too.
    static constexpr uint32_t MAX_SIZE = 72;

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

    /**
     * Hold another number of bytes (those kept keep their values; new ones are undefined until
     * written), as a new header of that size would, for a caller that reuses one header object.
     * @param size how many bytes it holds (1 to MAX_SIZE); aborts otherwise.
     */
    void SetSize(uint32_t size);
    /// @return the bytes, to read or patch (GetSize() of them are meaningful).
    uint8_t* GetBytes();

    /// @return how many bytes it holds.
    uint32_t GetSize() const;

    /**
     * Replace a 16-bit word of an IPv4 header in memory and update the header checksum
     * incrementally (RFC 1624, equation 3: HC' = ~(~HC + ~m + m')), as a router does when it
     * changes the TTL or the ECN field.
     * @param ipv4 the IPv4 header's first byte (the checksum is at offset 10).
     * @param offset the word's offset in the header (even).
     * @param word the new value of the word.
     */
    static void PatchIpv4Word(uint8_t* ipv4, uint32_t offset, uint16_t word);

    /**
     * Compute and write the header checksum of an IPv4 header without options in memory
     * (RFC 791, RFC 1071: the one's complement of the one's complement sum of its 16-bit
     * words, the checksum field counted as zero), as a sender does.
     * @param ipv4 the header's 20 bytes; its checksum (offset 10) is written.
     */
    static void SetIpv4Checksum(uint8_t* ipv4);

    /// Offset of the TTL byte in an IPv4 header (the protocol and the header checksum follow).
    static constexpr uint32_t IPV4_TTL_OFFSET = 8;

    /**
     * Where the IPv4 TTL of an Ethernet frame is, from its first bytes.
     * @param bytes the frame's first n bytes, Ethernet header first (untagged or 802.1Q-tagged).
     * @param n how many.
     * @return the TTL byte's offset in the frame, or 0 if the frame does not carry IPv4 or
     * @p bytes end before its header checksum.
     */
    static uint32_t FindIpv4Ttl(const uint8_t* bytes, uint32_t n);

    /**
     * Decrement the TTL of an IPv4 header in memory up to @p hops times, as that many routers
     * would one after another: each decrement leaves a TTL of 1 or 0 as it is and patches the
     * header checksum (PatchIpv4Word).
     * @param ipv4 the header's first byte (TTL, protocol and checksum at offsets 8 to 11).
     * @param hops how many decrements.
     * @return how many were made.
     */
    static uint32_t DecrementIpv4TtlBytes(uint8_t* ipv4, uint32_t hops);

    /**
     * The TTL that @p hops routers leave (DecrementIpv4TtlBytes patches a header to it): a TTL
     * of 1 or 0 stays, a larger one goes down by @p hops but not below 1.
     * @param ttl the TTL before.
     * @param hops how many decrements.
     * @return the TTL after.
     */
    static uint8_t TtlAfter(uint8_t ttl, uint32_t hops)
    {
        if (ttl <= 1)
        {
            return ttl;
        }
        return hops >= ttl ? 1 : static_cast<uint8_t>(ttl - hops);
    }

    /**
     * Decrement the IPv4 TTL of an Ethernet frame up to @p hops times, as that many routers
     * would one after another: each decrement leaves a TTL of 1 or 0 as it is and patches the
     * header checksum (PatchIpv4Word), so the frame ends with the bytes of as many single
     * decrements; one prefix of the frame (up to the checksum) is replaced, whatever @p hops.
     * A frame without IPv4 is left as it is.
     * @param frame the frame, Ethernet header first (untagged or 802.1Q-tagged).
     * @param bytes its first n bytes as they are now (at least up to the IPv4 checksum).
     * @param n how many.
     * @param hops how many decrements.
     * @param strip how many of the frame's first bytes to remove at the same time (a host
     * removing the Ethernet header), whether or not a decrement is made; fewer than the bytes
     * before the TTL.
     * @return how many were made.
     */
    static uint32_t DecrementIpv4Ttl(const Ptr<Packet>& frame,
                                     const uint8_t* bytes,
                                     uint32_t n,
                                     uint32_t hops,
                                     uint32_t strip = 0);

    /**
     * The same, reading the frame's first bytes.
     * @param frame the frame, Ethernet header first.
     * @param hops how many decrements (0: nothing is read).
     * @return how many were made.
     */
    static uint32_t DecrementIpv4Ttl(const Ptr<Packet>& frame, uint32_t hops);

  private:
    std::array<uint8_t, MAX_SIZE> m_bytes; //!< the bytes
    uint32_t m_size;                       //!< how many of them
};

} // namespace ns3

#endif /* FRAME_PREFIX_HEADER_H */
