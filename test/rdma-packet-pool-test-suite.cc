/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/config.h"
#include "ns3/ethernet-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/packet.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-packet-pool.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of RdmaPacketPool: a packet offered comes back as the zeros it was made with, only when
 * nothing else holds it; and in a transfer, reused packets put the same bytes on the wire.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// Bytes of the made-up headers and trailer of the packets offered here.
constexpr uint32_t FRONT = 14; // an Ethernet header
constexpr uint32_t BACK = 4;   // an ICRC

/**
 * A packet as a queue pair sends one: `zeros` zero bytes between an Ethernet header (not all
 * zeros: the source address is set) and an ICRC (0x12345678).
 * @param zeros the payload's size.
 * @return the packet.
 */
Ptr<Packet>
MakeSent(uint32_t zeros)
{
    Ptr<Packet> p = Create<Packet>(zeros);
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address("00:00:00:00:00:01"));
    eth.SetDestination(Mac48Address("00:00:00:00:00:02"));
    eth.SetLengthType(0x0800);
    p->AddHeader(eth);
    p->AddTrailer(RoceIcrcTrailer(0x12345678));
    return p;
}

/// @return whether every byte of the packet is zero.
bool
AllZeros(Ptr<const Packet> p)
{
    std::vector<uint8_t> bytes = PacketBytes(p);
    return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A packet offered and taken is the same object, without its headers and trailers: the zeros
 * it was made with, the tags removed; the pool is empty again.
 */
class PacketPoolRoundTripTestCase : public TestCase
{
  public:
    PacketPoolRoundTripTestCase()
        : TestCase("an offered packet comes back as its zeros, untagged")
    {
    }

  private:
    void DoRun() override
    {
        RdmaPacketPool::Clear();
        uint64_t takenBefore = RdmaPacketPool::GetTaken();
        Ptr<Packet> sent = MakeSent(1000);
        SocketPriorityTag tag;
        tag.SetPriority(5);
        sent->AddPacketTag(tag);
        sent->AddByteTag(tag);
        NS_TEST_ASSERT_MSG_EQ(sent->GetSize(), 1018, "14 + 1000 + 4 bytes");
        NS_TEST_ASSERT_MSG_EQ(AllZeros(sent), false, "the headers are not zeros");
        const Packet* object = PeekPointer(sent);
        RdmaPacketPool::Offer(sent, FRONT, BACK);
        NS_TEST_EXPECT_MSG_EQ(RdmaPacketPool::GetKept(), 1, "kept");
        sent = nullptr; // the receiver is done with it

        Ptr<Packet> again = RdmaPacketPool::Take(1000);
        NS_TEST_EXPECT_MSG_EQ(PeekPointer(again), object, "the same packet");
        NS_TEST_EXPECT_MSG_EQ(again->GetReferenceCount(), 1, "held by the taker alone");
        NS_TEST_EXPECT_MSG_EQ(again->GetSize(), 1000, "the payload's size");
        NS_TEST_EXPECT_MSG_EQ(AllZeros(again), true, "zeros, as Create<Packet>(1000)");
        SocketPriorityTag found;
        NS_TEST_EXPECT_MSG_EQ(again->PeekPacketTag(found), false, "no packet tag");
        NS_TEST_EXPECT_MSG_EQ(again->FindFirstMatchingByteTag(found), false, "no byte tag");
        NS_TEST_EXPECT_MSG_EQ(RdmaPacketPool::GetKept(), 0, "the pool is empty again");
        NS_TEST_EXPECT_MSG_EQ(RdmaPacketPool::GetTaken() - takenBefore, 1, "one taken");

        // Made a frame again, it has the bytes a new packet would have.
        again->AddHeader(EthernetHeader(false));
        Ptr<Packet> fresh = Create<Packet>(1000);
        fresh->AddHeader(EthernetHeader(false));
        NS_TEST_EXPECT_MSG_EQ((PacketBytes(again) == PacketBytes(fresh)), true, "same bytes");

        // Nothing kept: a new packet.
        Ptr<Packet> made = RdmaPacketPool::Take(1000);
        NS_TEST_EXPECT_MSG_EQ((PeekPointer(made) != object), true, "a new packet");
        NS_TEST_EXPECT_MSG_EQ(made->GetSize(), 1000, "of the size asked");
        NS_TEST_EXPECT_MSG_EQ(AllZeros(made), true, "zeros");
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * A packet somebody still holds is not handed out (and not changed), nor one of another size.
 */
class PacketPoolHeldTestCase : public TestCase
{
  public:
    PacketPoolHeldTestCase()
        : TestCase("a packet still held, or of another size, is not taken")
    {
    }

  private:
    void DoRun() override
    {
        RdmaPacketPool::Clear();
        Ptr<Packet> sent = MakeSent(1000);
        std::vector<uint8_t> bytes = PacketBytes(sent);
        RdmaPacketPool::Offer(sent, FRONT, BACK);
        // `sent` is still held here (a trace sink that kept it, say).
        Ptr<Packet> taken = RdmaPacketPool::Take(1000);
        NS_TEST_EXPECT_MSG_EQ((PeekPointer(taken) != PeekPointer(sent)), true, "not the held one");
        NS_TEST_EXPECT_MSG_EQ(sent->GetReferenceCount(), 1, "the pool let go of it");
        NS_TEST_EXPECT_MSG_EQ((PacketBytes(sent) == bytes), true, "the held packet unchanged");
        NS_TEST_EXPECT_MSG_EQ(RdmaPacketPool::GetKept(), 0, "nothing kept");

        const Packet* object = PeekPointer(sent);
        RdmaPacketPool::Offer(sent, FRONT, BACK);
        sent = nullptr;
        Ptr<Packet> other = RdmaPacketPool::Take(999);
        NS_TEST_EXPECT_MSG_EQ((PeekPointer(other) != object), true, "another size: a new packet");
        NS_TEST_EXPECT_MSG_EQ(other->GetSize(), 999, "of the size asked");
        NS_TEST_EXPECT_MSG_EQ(RdmaPacketPool::GetKept(), 1, "the offered one still kept");
        Ptr<Packet> same = RdmaPacketPool::Take(1000);
        NS_TEST_EXPECT_MSG_EQ(PeekPointer(same), object, "its own size: the offered one");

        // Sizes that do not add up are refused.
        Ptr<Packet> small = MakeSent(10);
        RdmaPacketPool::Offer(small, 20, 10); // 20 + 10 > 28 bytes
        RdmaPacketPool::Offer(small, 30, 0);
        NS_TEST_EXPECT_MSG_EQ(RdmaPacketPool::GetKept(), 0, "nothing kept");
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * The pool keeps at most MAX_KEPT packets of at most MAX_SIZES sizes, and Simulator::Destroy
 * empties it.
 */
class PacketPoolLimitsTestCase : public TestCase
{
  public:
    PacketPoolLimitsTestCase()
        : TestCase("at most MAX_KEPT packets of MAX_SIZES sizes; emptied by Simulator::Destroy")
    {
    }

  private:
    void DoRun() override
    {
        RdmaPacketPool::Clear();
        for (size_t i = 0; i < RdmaPacketPool::MAX_KEPT + 10; ++i)
        {
            RdmaPacketPool::Offer(MakeSent(100), FRONT, BACK);
        }
        NS_TEST_EXPECT_MSG_EQ(RdmaPacketPool::GetKept(), RdmaPacketPool::MAX_KEPT, "the most");
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(RdmaPacketPool::GetKept(), 0, "emptied by Simulator::Destroy");

        for (uint32_t size = 1; size <= RdmaPacketPool::MAX_SIZES + 1; ++size)
        {
            RdmaPacketPool::Offer(MakeSent(size), FRONT, BACK);
        }
        NS_TEST_EXPECT_MSG_EQ(RdmaPacketPool::GetKept(), RdmaPacketPool::MAX_SIZES, "sizes");
        Ptr<Packet> last = RdmaPacketPool::Take(RdmaPacketPool::MAX_SIZES + 1);
        NS_TEST_EXPECT_MSG_EQ(RdmaPacketPool::GetKept(),
                              RdmaPacketPool::MAX_SIZES,
                              "the size beyond the most was not kept");
        Ptr<Packet> first = RdmaPacketPool::Take(1);
        NS_TEST_EXPECT_MSG_EQ(RdmaPacketPool::GetKept(), RdmaPacketPool::MAX_SIZES - 1, "taken");
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(RdmaPacketPool::GetKept(), 0, "emptied");
    }
};

/**
 * @ingroup llm-fabric-tests
 * In a transfer, the data packets and ACKs read are made again, and what goes on the wire is
 * what new packets would carry: every data frame's payload zeros and its ICRC right.
 */
class PacketPoolTransferTestCase : public TestCase
{
  public:
    PacketPoolTransferTestCase()
        : TestCase("a transfer reuses its packets and puts the right bytes on the wire")
    {
    }

  private:
    /// What the sender's port sent.
    struct Wire
    {
        uint32_t dataFrames = 0; //!< RDMA WRITE frames
        uint32_t fullFrames = 0; //!< of them, with 1000 bytes of payload
        uint32_t badPayload = 0; //!< with a payload byte not zero
        uint32_t badIcrc = 0;    //!< with a wrong ICRC
        std::set<uint64_t> uids; //!< the packets' uids

        /// PhyTxBegin sink.
        void Sent(Ptr<const Packet> frame)
        {
            std::vector<uint8_t> b = PacketBytes(frame);
            constexpr uint32_t eth = 14;
            constexpr uint32_t bth = eth + 28;
            if (b.size() < bth + IbBthHeader::SIZE + BACK || b[12] != 0x08 || b[13] != 0x00)
            {
                return;
            }
            uint8_t opcode = b[bth];
            if (opcode < IbBthHeader::RC_RDMA_WRITE_FIRST ||
                opcode > IbBthHeader::RC_RDMA_WRITE_ONLY)
            {
                return;
            }
            ++dataFrames;
            uids.insert(frame->GetUid());
            uint32_t front = bth + IbBthHeader::SIZE + (IbBthHeader::HasReth(opcode) ? 16 : 0);
            uint32_t payload = static_cast<uint32_t>(b.size()) - front - BACK;
            fullFrames += payload == 1000 ? 1 : 0;
            if (!std::all_of(b.begin() + front, b.end() - BACK, [](uint8_t x) { return x == 0; }))
            {
                ++badPayload;
            }
            Ptr<Packet> ip = frame->Copy();
            ip->RemoveAtStart(eth);
            badIcrc += RoceIcrcTrailer::Verify(ip) ? 0 : 1;
        }
    };

    void DoRun() override
    {
        RdmaPacketPool::Clear();
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        RoceTopologyHelper topo;
        RoceFabric fabric;
        auto ep = MakeRdmaStar(2, topo, fabric);
        auto [s, r] = RdmaEndpoint::Connect(ep[0], ep[1], 0xC000);
        uint64_t takenBefore = RdmaPacketPool::GetTaken();
        Wire wire;
        fabric.GetHostDevice(0)->TraceConnectWithoutContext("PhyTxBegin",
                                                            MakeCallback(&Wire::Sent, &wire));
        s->PostWrite(200000);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        uint64_t outstanding = s->GetOutstandingMessages();
        uint64_t sent = s->GetPacketsSent();
        uint64_t taken = RdmaPacketPool::GetTaken() - takenBefore;
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_EXPECT_MSG_EQ(outstanding, 0, "the write completed (acknowledged)");
        NS_TEST_EXPECT_MSG_EQ(sent, 200, "200 packets sent, none again");
        // 200 packets of 1000 bytes, each 1,082 bytes on the wire with the Ethernet overheads,
        // leave every 86.56 ns at 100 Gb/s; a packet is read about 2.2 us after it leaves (two
        // 1 us links and two serializations), when the sender is about 26 packets further on.
        // So about 174 data packets can be made from read ones; at least half of the 200 are.
        NS_TEST_EXPECT_MSG_EQ(wire.dataFrames, 200, "200 data frames (no loss, no resend)");
        NS_TEST_EXPECT_MSG_EQ(wire.fullFrames, 200, "each with 1000 bytes of payload");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(taken, 100, "at least half made from read packets");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(wire.uids.size(), 200 - 100, "so fewer packet objects");
        NS_TEST_EXPECT_MSG_EQ(wire.badPayload, 0, "every payload zeros");
        NS_TEST_EXPECT_MSG_EQ(wire.badIcrc, 0, "every ICRC right");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The RdmaPacketPool test suite.
 */
class RdmaPacketPoolTestSuite : public TestSuite
{
  public:
    RdmaPacketPoolTestSuite()
        : TestSuite("llm-fabric-rdma-packet-pool", Type::UNIT)
    {
        AddTestCase(new PacketPoolRoundTripTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PacketPoolHeldTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PacketPoolLimitsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PacketPoolTransferTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The static instance that registers the suite.
static RdmaPacketPoolTestSuite g_rdmaPacketPoolTestSuite;

} // namespace tests
} // namespace llmfabric
