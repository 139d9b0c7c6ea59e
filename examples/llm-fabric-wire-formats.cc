/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * A short RoCEv2 exchange written to a pcap, frame by frame, with the module's wire formats.
 *
 * Topology: two hosts on one 100 Gb/s link (1 us), captured by a tap on that link.
 *
 *     host A 10.0.0.1 (QP 0x11)  ==========  host B 10.0.0.2 (QP 0x12)
 *
 * What is written, in this order:
 *   1. an RDMA WRITE of --bytes bytes from A's QP to B's QP, cut into --mtu byte packets
 *      (WRITE First with a RETH, Middles, Last; or WRITE Only if it fits one packet), PSNs from
 *      --psn, ECN-capable ECT(0), the last one asking for an acknowledgement;
 *   2. one data packet is marked CE as a switch would (ECN bits 11 and a new IPv4 checksum);
 *      its ICRC still verifies, since the ICRC masks the TOS byte;
 *   3. B answers the CE mark with a CNP (BTH opcode 0x81, BECN set, to A's QP, 16 reserved bytes);
 *   4. B acknowledges the message (BTH opcode 0x11 with an AETH ACK, PSN of the last packet);
 *   5. B pauses A's priority --priority with an IEEE 802.1Qbb PFC frame (0xFFFF quanta), then
 *      resumes it with a zero-quanta PFC frame.
 * Timestamps follow the link: a frame occupies (size + FCS + 8 preamble + 12 inter-frame gap)
 * bytes at the link rate, plus the propagation delay before the other side reacts.
 *
 * Output: the pcap (--pcap, Ethernet link type, nanosecond timestamps; open it in Wireshark or
 * `tshark -r FILE -V`) and a table on stdout of every frame with the field values it carries.
 *
 * Run: ./ns3 run "llm-fabric-wire-formats --bytes=3000 --mtu=1024 --pcap=roce.pcap"
 */

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/data-rate.h"
#include "ns3/ethernet-header.h"
#include "ns3/ib-aeth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-reth-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/pfc-header.h"
#include "ns3/program-options.h"
#include "ns3/roce-cnp-header.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/roce-v2-packet.h"
#include "ns3/trace-helper.h"
#include "ns3/usage-error.h"

#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The two ends of the link.
struct Host
{
    Mac48Address mac; //!< its MAC address
    Ipv4Address ip;   //!< its IPv4 address
    uint32_t qp;      //!< its queue pair number
    uint16_t udpPort; //!< UDP source port of its QP
    const char* name; //!< "A" or "B"
};

/// Writes frames to the pcap and the table, keeping the link's clock.
class Tap
{
  public:
    /**
     * @param file the pcap.
     * @param rate link rate.
     */
    Tap(Ptr<PcapFileWrapper> file, DataRate rate)
        : m_file(file),
          m_rate(rate)
    {
    }

    /**
     * Record a frame that starts at time at, and return when its last bit has left.
     * @param at when the first bit leaves.
     * @param frame the frame, without FCS.
     * @param from sender name.
     * @param to receiver name.
     * @param what a description of its fields.
     * @return the time the frame has been serialized.
     */
    Time Record(Time at,
                Ptr<const Packet> frame,
                const std::string& from,
                const std::string& to,
                const std::string& what)
    {
        m_file->Write(at, frame);
        ++m_frames;
        // FCS (4), preamble and start delimiter (8), inter-frame gap (12) also occupy the wire.
        Time busy = m_rate.CalculateBytesTxTime(frame->GetSize() + 4 + 8 + 12);
        std::cout << std::setw(3) << m_frames << "  " << std::setw(9) << at.GetNanoSeconds()
                  << " ns  " << from << "->" << to << "  " << std::setw(5) << frame->GetSize() + 4
                  << " B  " << what << std::endl;
        return at + busy;
    }

  private:
    Ptr<PcapFileWrapper> m_file; //!< output
    DataRate m_rate;             //!< link rate
    uint32_t m_frames{0};        //!< frames written
};

/// @return the hexadecimal form of v with the given number of digits.
std::string
Hex(uint64_t v, int digits)
{
    std::ostringstream os;
    os << "0x" << std::hex << std::setw(digits) << std::setfill('0') << v;
    return os.str();
}

/**
 * Wrap a transport packet for the link from one host to the other.
 * @param transport BTH and what follows; modified.
 * @param from sender.
 * @param to receiver.
 * @param ipId IPv4 identification.
 * @param ecn the ECN codepoint.
 */
void
Frame(Ptr<Packet> transport,
      const Host& from,
      const Host& to,
      uint16_t ipId,
      Ipv4Header::EcnType ecn)
{
    RoceV2Packet::Addressing addressing;
    addressing.source = from.ip;
    addressing.destination = to.ip;
    addressing.udpSourcePort = from.udpPort;
    addressing.dscp = 26; // a lossless RDMA class (AF31, a common RoCE choice)
    addressing.ecn = ecn;
    addressing.identification = ipId;
    RoceV2Packet::Encapsulate(transport, addressing);
}

/// Check a command-line value; on failure print "program: --key: reason" and exit 2.
void
Require(bool ok, const std::string& key, const std::string& reason)
{
    if (!ok)
    {
        UsageError::Exit("llm-fabric-wire-formats", key, reason);
    }
}

/**
 * Write a control packet B sends to A's QP: its BTH (addressed to A's QP) on what the packet
 * holds, framed from B to A, not ECN-capable.
 * @param tap the capture.
 * @param a the data sender, whose QP the packet is for.
 * @param b the receiver, which sends it.
 * @param p what follows the BTH; modified.
 * @param bth the BTH, but for its destination QP.
 * @param ipId the IPv4 identification.
 * @param at when B sends it.
 * @param what its description.
 * @return when it has left.
 */
Time
WriteToSender(Tap& tap,
              const Host& a,
              const Host& b,
              Ptr<Packet> p,
              IbBthHeader bth,
              uint16_t ipId,
              Time at,
              const std::string& what)
{
    bth.SetDestQp(a.qp);
    p->AddHeader(bth);
    Frame(p, b, a, ipId, Ipv4Header::ECN_NotECT);
    RoceV2Packet::AddEthernetHeader(p, b.mac, a.mac);
    return tap.Record(at, p, b.name, a.name, what);
}

/**
 * Write B's CNP for a CE-marked packet, to A's QP.
 * @param tap the capture.
 * @param a the data sender.
 * @param b the receiver, which sends the CNP.
 * @param at when B sends it.
 * @return when it has left.
 */
Time
WriteCnp(Tap& tap, const Host& a, const Host& b, Time at)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(RoceCnpHeader());
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::CNP);
    bth.SetBecn(true);
    return WriteToSender(tap, a, b, p, bth, 1, at, "CNP(0x81) destqp=" + Hex(a.qp, 6) + " becn=1");
}

/**
 * Write B's ACK for the whole message.
 * @param tap the capture.
 * @param a the data sender.
 * @param b the receiver.
 * @param lastPsn the message's last PSN.
 * @param at when B sends it.
 * @return when it has left.
 */
Time
WriteAck(Tap& tap, const Host& a, const Host& b, uint32_t lastPsn, Time at)
{
    Ptr<Packet> p = Create<Packet>();
    IbAethHeader aeth;
    aeth.SetAck();
    aeth.SetMsn(1);
    p->AddHeader(aeth);
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::RC_ACKNOWLEDGE);
    bth.SetPsn(lastPsn);
    return WriteToSender(tap,
                         a,
                         b,
                         p,
                         bth,
                         2,
                         at,
                         "RC_ACKNOWLEDGE destqp=" + Hex(a.qp, 6) +
                             " psn=" + std::to_string(lastPsn) + " aeth=ACK msn=1");
}

/**
 * Write B's PFC pause of one priority for the longest time, then its resume 10 us later.
 * @param tap the capture.
 * @param a the paused host.
 * @param b the host that pauses it.
 * @param priority the priority.
 * @param linkRate the link rate (the length of a quantum).
 * @param now when B sends the pause.
 */
void
WritePfc(Tap& tap, const Host& a, const Host& b, uint8_t priority, DataRate linkRate, Time now)
{
    Time pauseSentAt = now;
    for (uint16_t quanta : {uint16_t(0xFFFF), uint16_t(0)})
    {
        PfcHeader pfc;
        pfc.SetPauseTime(priority, quanta);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(pfc);
        RoceV2Packet::AddEthernetHeader(p,
                                        b.mac,
                                        PfcHeader::GetPfcDestination(),
                                        PfcHeader::ETHER_TYPE);
        std::string what = "PFC class-enable=" + Hex(pfc.GetClassEnableVector(), 4) + " time[" +
                           std::to_string(priority) + "]=" + std::to_string(quanta) + " quanta";
        if (quanta > 0)
        {
            std::ostringstream pause;
            pause << " (" << PfcHeader::QuantaToTime(quanta, linkRate).As(Time::US) << " at "
                  << linkRate.GetBitRate() / 1e9 << " Gb/s)";
            what += pause.str();
        }
        else
        {
            what += " (resume)";
        }
        // The resume follows the pause after 10 us, well inside the pause time.
        Time at = quanta > 0 ? now : pauseSentAt + MicroSeconds(10);
        now = tap.Record(at, p, b.name, a.name, what);
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t bytes = 3000;
    uint32_t mtu = 1024;
    uint32_t psn = 100;
    uint32_t priority = 3;
    std::string pcap = "llm-fabric-wire-formats.pcap";
    DataRate linkRate("100Gbps");
    Time linkDelay = MicroSeconds(1);

    ProgramOptions cmd("llm-fabric-wire-formats",
                       "The RoCEv2 and PFC frames of one exchange, written to a pcap.");
    cmd.AddValue("bytes", "Size of the RDMA WRITE message in bytes", bytes);
    cmd.AddValue("mtu", "RDMA MTU: payload bytes per packet (256 to 4096)", mtu);
    cmd.AddValue("psn", "PSN of the first packet", psn);
    cmd.AddValue("priority", "Priority (0-7) the PFC frames pause and resume", priority);
    cmd.AddValue("linkRate", "Link rate", linkRate);
    cmd.AddValue("linkDelay", "Link propagation delay", linkDelay);
    cmd.AddValue("pcap", "Output pcap file", pcap);
    cmd.ParseOrExit(argc, argv);

    Require(bytes > 0, "bytes", "must be positive");
    Require(mtu >= 256 && mtu <= 4096, "mtu", "must be between 256 and 4096");
    Require(psn <= 0xFFFFFF, "psn", "must fit 24 bits");
    Require(priority <= 7, "priority", "must be between 0 and 7");
    Require(linkRate.GetBitRate() > 0, "linkRate", "must be positive");
    uint32_t packets = (bytes + mtu - 1) / mtu;
    Require(psn + packets - 1 <= 0xFFFFFF, "psn", "the message's PSNs must fit 24 bits");

    Ptr<PcapFileWrapper> file = CreateObject<PcapFileWrapper>();
    file->SetAttribute("NanosecMode", BooleanValue(true));
    file->Open(pcap, std::ios::out | std::ios::binary);
    Require(!file->Fail(), "pcap", "cannot write " + pcap);
    file->Init(PcapHelper::DLT_EN10MB);

    Host a{Mac48Address("00:00:00:00:00:01"), Ipv4Address("10.0.0.1"), 0x11, 0xC011, "A"};
    Host b{Mac48Address("00:00:00:00:00:02"), Ipv4Address("10.0.0.2"), 0x12, 0xC012, "B"};
    Tap tap(file, linkRate);

    std::cout << "RoCEv2 exchange on a " << linkRate.GetBitRate() / 1e9 << " Gb/s link ("
              << linkDelay.As(Time::US) << "), written to " << pcap << std::endl
              << "  #       time       dir   wire   what" << std::endl;

    // 1-2. The WRITE, one packet per MTU; the middle of the message gets marked CE.
    const uint64_t virtualAddress = 0x10000;
    const uint32_t rkey = 0x1234;
    const uint32_t markedIndex = packets / 2;
    Time now = Seconds(0);
    Time markedArrival;
    Time lastArrival;
    uint16_t ipId = 1;
    for (uint32_t i = 0; i < packets; ++i)
    {
        uint32_t len = (i + 1 < packets) ? mtu : bytes - mtu * (packets - 1);
        std::vector<uint8_t> payload(len);
        for (uint32_t k = 0; k < len; ++k)
        {
            payload[k] = static_cast<uint8_t>(mtu * i + k);
        }
        Ptr<Packet> p = Create<Packet>(payload.data(), len);
        uint8_t opcode = packets == 1       ? IbBthHeader::RC_RDMA_WRITE_ONLY
                         : i == 0           ? IbBthHeader::RC_RDMA_WRITE_FIRST
                         : i + 1 == packets ? IbBthHeader::RC_RDMA_WRITE_LAST
                                            : IbBthHeader::RC_RDMA_WRITE_MIDDLE;
        std::string what = IbBthHeader::OpcodeName(opcode) + " destqp=" + Hex(b.qp, 6) +
                           " psn=" + std::to_string(psn + i) + " payload=" + std::to_string(len);
        if (IbBthHeader::HasReth(opcode))
        {
            IbRethHeader reth;
            reth.SetVirtualAddress(virtualAddress);
            reth.SetRkey(rkey);
            reth.SetDmaLength(bytes);
            p->AddHeader(reth);
            what += " reth.va=" + Hex(virtualAddress, 8) + " reth.dmalen=" + std::to_string(bytes);
        }
        IbBthHeader bth;
        bth.SetOpcode(opcode);
        bth.SetDestQp(b.qp);
        bth.SetPsn(psn + i);
        bth.SetAckRequest(i + 1 == packets);
        p->AddHeader(bth);
        Frame(p, a, b, ipId++, Ipv4Header::ECN_ECT0);
        if (i == markedIndex)
        {
            // What a switch does when its queue passes the marking threshold: set CE and fix
            // the IPv4 checksum. The ICRC masks that byte, so it stays valid.
            Ipv4Header ip;
            p->RemoveHeader(ip);
            ip.SetEcn(Ipv4Header::ECN_CE);
            ip.EnableChecksum();
            p->AddHeader(ip);
            bool valid = RoceIcrcTrailer::Verify(p);
            what += " ecn=CE (icrc " + std::string(valid ? "still valid" : "INVALID") + ")";
            if (!valid)
            {
                std::cerr << "llm-fabric-wire-formats: the ICRC broke under CE marking"
                          << std::endl;
                return 1;
            }
        }
        else
        {
            what += " ecn=ECT(0)";
        }
        RoceV2Packet::AddEthernetHeader(p, a.mac, b.mac);
        Time end = tap.Record(now, p, a.name, b.name, what);
        if (i == markedIndex)
        {
            markedArrival = end + linkDelay;
        }
        lastArrival = end + linkDelay;
        now = end;
    }

    // 3. B's CNP for the CE-marked packet, to A's QP.
    now = WriteCnp(tap, a, b, markedArrival);
    // 4. B's ACK for the whole message.
    now = WriteAck(tap, a, b, psn + packets - 1, std::max(now, lastArrival));
    // 5. PFC pause of one priority for the longest time, then its resume.
    WritePfc(tap, a, b, static_cast<uint8_t>(priority), linkRate, now);

    std::cout << "Open it with: tshark -r " << pcap << " -V   (or Wireshark)" << std::endl;
    return 0;
}
