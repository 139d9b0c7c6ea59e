/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-packet-pool.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <array>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaPacketPool");

namespace
{

/// A packet kept, with the pool's reference, and what Take removes from it.
struct Kept
{
    Packet* packet; //!< the packet (a plain pointer: the pool holds one reference)
    uint32_t front; //!< bytes of headers before its zeros
    uint32_t back;  //!< bytes of trailers after them
};

/// The packets kept of one payload size.
struct SizeClass
{
    uint32_t zeros = 0;        //!< the payload's size, bytes
    std::vector<Kept> packets; //!< the packets, the last offered last
};

/// The process's pool.
struct Pool
{
    std::array<SizeClass, RdmaPacketPool::MAX_SIZES> sizes; //!< by payload size
    size_t sizeCount = 0;                                   //!< sizes in use
    size_t kept = 0;                                        //!< packets kept
    uint64_t taken = 0;                                     //!< packets given back
    bool destroyScheduled = false; //!< Clear is scheduled at Simulator::Destroy

    /**
     * @param zeros a payload size.
     * @return its packets, or nullptr if the pool keeps none of that size.
     */
    SizeClass* Find(uint32_t zeros)
    {
        for (size_t i = 0; i < sizeCount; ++i)
        {
            if (sizes[i].zeros == zeros)
            {
                return &sizes[i];
            }
        }
        return nullptr;
    }

    void Clear()
    {
        for (size_t i = 0; i < sizeCount; ++i)
        {
            for (const Kept& k : sizes[i].packets)
            {
                k.packet->Unref();
            }
            sizes[i].packets.clear();
        }
        sizeCount = 0;
        kept = 0;
        destroyScheduled = false;
    }

    ~Pool()
    {
        Clear();
    }
};

/// The pool (a packet read by one endpoint is made again by another).
Pool g_pool;

} // namespace

Ptr<Packet>
RdmaPacketPool::Take(uint32_t zeros)
{
    Pool& pool = g_pool;
    SizeClass* c = pool.Find(zeros);
    while (c && !c->packets.empty())
    {
        Kept k = c->packets.back();
        c->packets.pop_back();
        --pool.kept;
        Ptr<Packet> p(k.packet, false); // takes over the pool's reference
        if (p->GetReferenceCount() != 1)
        {
            continue; // someone still holds it: theirs alone now
        }
        p->RemoveAtStart(k.front);
        p->RemoveAtEnd(k.back);
        p->RemoveAllPacketTags();
        p->RemoveAllByteTags();
#ifdef NS3_ASSERT_ENABLE
        std::vector<uint8_t> bytes(zeros + 1, 1);
        NS_ASSERT_MSG(
            p->CopyData(bytes.data(), zeros + 1) == zeros &&
                std::all_of(bytes.begin(), bytes.begin() + zeros, [](uint8_t b) { return b == 0; }),
            "RdmaPacketPool: a packet offered with bytes other than its zeros");
#endif
        ++pool.taken;
        return p;
    }
    return Create<Packet>(zeros);
}

void
RdmaPacketPool::Offer(const Ptr<Packet>& packet, uint32_t front, uint32_t back)
{
    Pool& pool = g_pool;
    uint32_t size = packet->GetSize();
    if (pool.kept >= MAX_KEPT || front > size || back > size - front)
    {
        return;
    }
    uint32_t zeros = size - front - back;
    SizeClass* c = pool.Find(zeros);
    if (!c)
    {
        if (pool.sizeCount == MAX_SIZES)
        {
            return;
        }
        c = &pool.sizes[pool.sizeCount++];
        c->zeros = zeros;
    }
    if (!pool.destroyScheduled)
    {
        pool.destroyScheduled = true;
        Simulator::ScheduleDestroy(&RdmaPacketPool::Clear);
    }
    packet->Ref();
    c->packets.push_back(Kept{PeekPointer(packet), front, back});
    ++pool.kept;
}

void
RdmaPacketPool::Clear()
{
    NS_LOG_FUNCTION_NOARGS();
    g_pool.Clear();
}

size_t
RdmaPacketPool::GetKept()
{
    return g_pool.kept;
}

uint64_t
RdmaPacketPool::GetTaken()
{
    return g_pool.taken;
}

} // namespace ns3
