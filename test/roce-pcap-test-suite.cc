/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/ib-aeth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-reth-header.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/nstime.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-cnp-header.h"
#include "ns3/roce-v2-packet.h"
#include "ns3/test.h"
#include "ns3/trace-helper.h"

#include <fstream>
#include <sstream>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * A pcap of RoCEv2 data, ACK, CNP and PFC frames, written with nanosecond timestamps on the
 * Ethernet link type, is read back by tshark (Wireshark's dissectors) with the field values
 * that were written: this is what a user opening our pcaps in Wireshark sees.
 */
class RocePcapTsharkTestCase : public TestCase
{
  public:
    RocePcapTsharkTestCase()
        : TestCase(
              "tshark dissects our pcap: RoCEv2 data, ACK and CNP fields, PFC vector and quanta")
    {
    }

  private:
    /// Wrap a transport packet from host 1 to host 2 (or back) and add Ethernet.
    static void Wrap(Ptr<Packet> p, bool forward, Ipv4Header::EcnType ecn)
    {
        RoceV2Packet::Addressing a;
        a.source = Ipv4Address(forward ? "10.1.0.1" : "10.1.0.2");
        a.destination = Ipv4Address(forward ? "10.1.0.2" : "10.1.0.1");
        a.udpSourcePort = forward ? 0xC001 : 0xC002;
        a.ecn = ecn;
        RoceV2Packet::Encapsulate(p, a);
        Mac48Address m1("02:00:00:00:00:01");
        Mac48Address m2("02:00:00:00:00:02");
        RoceV2Packet::AddEthernetHeader(p, forward ? m1 : m2, forward ? m2 : m1);
    }

    void DoRun() override
    {
        if (!HaveProgram("tshark"))
        {
            ReportSkip(GetName(), "tshark is not installed (apt-get install tshark)");
            return;
        }
        std::string file = CreateTempDirFilename("llm-fabric-roce.pcap");
        Ptr<PcapFileWrapper> pcap = CreateObject<PcapFileWrapper>();
        pcap->SetAttribute("NanosecMode", BooleanValue(true));
        pcap->Open(file, std::ios::out | std::ios::binary);
        NS_TEST_ASSERT_MSG_EQ(pcap->Fail(), false, "the pcap can be created");
        pcap->Init(PcapHelper::DLT_EN10MB);

        // 1. RDMA WRITE First, QP 0xabc, PSN 0x123456, RETH DMA length 8192, 1024 B, ECT(0).
        std::vector<uint8_t> payload(1024, 0x5a);
        Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
        IbRethHeader reth;
        reth.SetVirtualAddress(0x7f0000001000);
        reth.SetRkey(0xbeef);
        reth.SetDmaLength(8192);
        p->AddHeader(reth);
        IbBthHeader bth;
        bth.SetOpcode(IbBthHeader::RC_RDMA_WRITE_FIRST);
        bth.SetDestQp(0xabc);
        bth.SetPsn(0x123456);
        p->AddHeader(bth);
        Wrap(p, true, Ipv4Header::ECN_ECT0);
        pcap->Write(Seconds(1) + NanoSeconds(1), p);

        // 2. RDMA WRITE Last, PSN + 1, ack request, marked CE.
        p = Create<Packet>(payload.data(), payload.size());
        bth.SetOpcode(IbBthHeader::RC_RDMA_WRITE_LAST);
        bth.SetPsn(0x123457);
        bth.SetAckRequest(true);
        p->AddHeader(bth);
        Wrap(p, true, Ipv4Header::ECN_CE);
        pcap->Write(Seconds(1) + NanoSeconds(85), p);

        // 3. ACK to QP 0xdef for PSN 0x123457, MSN 7, invalid credit (syndrome 0x1f).
        p = Create<Packet>();
        IbAethHeader aeth;
        aeth.SetAck();
        aeth.SetMsn(7);
        p->AddHeader(aeth);
        IbBthHeader ack;
        ack.SetOpcode(IbBthHeader::RC_ACKNOWLEDGE);
        ack.SetDestQp(0xdef);
        ack.SetPsn(0x123457);
        p->AddHeader(ack);
        Wrap(p, false, Ipv4Header::ECN_NotECT);
        pcap->Write(Seconds(1) + NanoSeconds(1234), p);

        // 4. CNP to QP 0xdef.
        p = Create<Packet>();
        p->AddHeader(RoceCnpHeader());
        IbBthHeader cnp;
        cnp.SetOpcode(IbBthHeader::CNP);
        cnp.SetDestQp(0xdef);
        cnp.SetBecn(true);
        p->AddHeader(cnp);
        Wrap(p, false, Ipv4Header::ECN_NotECT);
        pcap->Write(Seconds(1) + NanoSeconds(1300), p);

        // 5. PFC: pause priority 3 for 0xffff quanta and priority 5 for 16 quanta.
        PfcHeader pfc;
        pfc.SetPauseTime(3, 0xffff);
        pfc.SetPauseTime(5, 16);
        p = Create<Packet>();
        p->AddHeader(pfc);
        RoceV2Packet::AddEthernetHeader(p,
                                        Mac48Address("02:00:00:00:00:02"),
                                        PfcHeader::GetPfcDestination(),
                                        PfcHeader::ETHER_TYPE);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 60, "a PFC frame is 60 bytes before its FCS");
        pcap->Write(Seconds(1) + NanoSeconds(2000), p);

        // 6. PFC resume of priority 3.
        PfcHeader resume;
        resume.SetResume(3);
        p = Create<Packet>();
        p->AddHeader(resume);
        RoceV2Packet::AddEthernetHeader(p,
                                        Mac48Address("02:00:00:00:00:02"),
                                        PfcHeader::GetPfcDestination(),
                                        PfcHeader::ETHER_TYPE);
        pcap->Write(Seconds(1) + NanoSeconds(3000), p);
        pcap->Close();

        // The file header: nanosecond magic a1b23c4d (written in host order, little endian
        // here: 4d 3c b2 a1) and link type 1 (Ethernet) at offset 20.
        std::ifstream raw(file, std::ios::binary);
        std::vector<uint8_t> head(24);
        raw.read(reinterpret_cast<char*>(head.data()), head.size());
        NS_TEST_ASSERT_MSG_EQ(BytesToHex(std::vector<uint8_t>(head.begin(), head.begin() + 4)),
                              "4d3cb2a1",
                              "nanosecond pcap magic");
        NS_TEST_ASSERT_MSG_EQ(+head[20], 1, "link type Ethernet (DLT_EN10MB)");

        int status = 0;
        std::string out = RunCommand(
            "tshark -r '" + file +
                "' -T fields -E separator='|' -E occurrence=f"
                " -e frame.time_epoch -e udp.dstport -e ip.dsfield.ecn"
                " -e infiniband.bth.opcode -e infiniband.bth.destqp -e infiniband.bth.psn"
                " -e infiniband.bth.a -e infiniband.reth.dmalen -e infiniband.aeth.msn"
                " -e eth.type -e macc.opcode -e macc.cbfc.enbv"
                " -e macc.cbfc.pause_time.c3 -e macc.cbfc.pause_time.c5 2>/dev/null",
            status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "tshark reads the file");
        std::vector<std::string> rows;
        std::istringstream lines(out);
        for (std::string line; std::getline(lines, line);)
        {
            rows.push_back(line);
        }
        NS_TEST_ASSERT_MSG_EQ(rows.size(), 6, "six frames; tshark said: " << out);

        // Expected rows, field by field (14 fields, 13 separators), from what was written above;
        // a field the frame does not have is empty. tshark prints the 24-bit QP with six hex
        // digits and the PFC vector and opcode in hexadecimal, PSNs and lengths in decimal
        // (0x123456 = 1193046); ECN 2 is ECT(0), 3 is CE; the PFC vector 0x28 has bits 3 and 5.
        NS_TEST_EXPECT_MSG_EQ(rows[0],
                              "1.000000001|4791|2|6|0x000abc|1193046|0|8192||0x0800||||",
                              "WRITE First with RETH, ECT(0)");
        NS_TEST_EXPECT_MSG_EQ(rows[1],
                              "1.000000085|4791|3|8|0x000abc|1193047|1|||0x0800||||",
                              "WRITE Last, ack request, CE");
        NS_TEST_EXPECT_MSG_EQ(rows[2],
                              "1.000001234|4791|0|17|0x000def|1193047|0||7|0x0800||||",
                              "ACK with AETH MSN 7");
        NS_TEST_EXPECT_MSG_EQ(rows[3],
                              "1.000001300|4791|0|129|0x000def|0|0|||0x0800||||",
                              "CNP, opcode 129");
        NS_TEST_EXPECT_MSG_EQ(rows[4],
                              "1.000002000|||||||||0x8808|0x0101|0x0028|65535|16",
                              "PFC pause of priorities 3 and 5");
        NS_TEST_EXPECT_MSG_EQ(rows[5],
                              "1.000003000|||||||||0x8808|0x0101|0x0008|0|0",
                              "PFC resume of priority 3");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Our pcaps as Wireshark reads them.
 */
class RocePcapTestSuite : public TestSuite
{
  public:
    RocePcapTestSuite()
        : TestSuite("llm-fabric-roce-pcap", Type::UNIT)
    {
        AddTestCase(new RocePcapTsharkTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static RocePcapTestSuite g_rocePcapTestSuite;

} // namespace tests
} // namespace llmfabric
