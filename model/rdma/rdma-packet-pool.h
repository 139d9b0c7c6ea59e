/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PACKET_POOL_H
#define RDMA_PACKET_POOL_H

#include "ns3/packet.h"

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Data packets handed back by their receivers and made again by senders.
 *
 * The model carries no data: an RDMA WRITE packet is headers, then its payload as the zeros of
 * `Create<Packet>(payload)` (a zero area ns-3's Buffer does not store), then the trailers. Making
 * and freeing an ns-3 Packet per data packet costs about a thousand instructions (the Packet, its
 * metadata and its buffer each come from the heap; with more than a thousand packets alive
 * ns-3's buffer free list is empty and the headers and trailers reallocate the buffer twice).
 *
 * A queue pair that has read a full data packet (or an ACK, a packet of no zeros) Offers it with
 * the sizes of its headers and trailers. Take, asked for a payload of that size, gives it back
 * without them, that is, as `Create<Packet>(zeros)` would make it (the same bytes; the buffer has
 * room for the headers again), but only once nothing else holds the packet: a packet still
 * referenced anywhere (a trace sink that kept it, a receive buffer) is left alone. What can tell a
 * taken packet from a new one: its uid (ns-3's Packet::GetUid) is the first life's, and uids stay
 * unique among the packets alive. Packet and byte tags are removed.
 *
 * The pool is the process's (receivers and senders are different endpoints) and holds at most
 * MAX_KEPT packets, in at most MAX_SIZES payload sizes (queue pairs offer only data packets of
 * their MTU, and ACKs); it is emptied at Simulator::Destroy.
 */
class RdmaPacketPool
{
  public:
    /// The most packets the pool keeps.
    static constexpr size_t MAX_KEPT = 4096;
    /// The most payload sizes it keeps packets of.
    static constexpr size_t MAX_SIZES = 4;

    /**
     * A packet of `zeros` zero bytes: a taken one if the pool has one nothing else holds,
     * otherwise `Create<Packet>(zeros)`.
     * @param zeros the payload's size, bytes.
     * @return the packet, held by nothing else.
     */
    static Ptr<Packet> Take(uint32_t zeros);

    /**
     * Keep a packet its reader is done with, to be taken again.
     *
     * The caller vouches that the bytes between the first `front` and the last `back` are the
     * zeros the packet was made with (in builds with assertions, Take checks them).
     * @param packet the packet.
     * @param front the bytes of headers before the zeros.
     * @param back the bytes of trailers after them.
     */
    static void Offer(const Ptr<Packet>& packet, uint32_t front, uint32_t back);

    /// Let go of every packet kept (Simulator::Destroy does).
    static void Clear();

    /// @return the packets kept now.
    static size_t GetKept();

    /// @return the packets Take gave back since the process started (made: not counted).
    static uint64_t GetTaken();
};

} // namespace ns3

#endif // RDMA_PACKET_POOL_H
