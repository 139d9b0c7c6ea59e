/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_BTH_HEADER_H
#define IB_BTH_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The InfiniBand Base Transport Header (BTH), as carried by RoCEv2 inside a UDP datagram to port
 * 4791 (IBA specification volume 1, section 9.2; RoCEv2 annex A17).
 *
 * Wire layout, 12 bytes, multi-byte fields big-endian:
 * @verbatim
   byte 0     OpCode
   byte 1     SE (bit 7) | M (bit 6) | PadCnt (bits 5-4) | TVer (bits 3-0)
   bytes 2-3  P_Key
   byte 4     FECN (bit 7) | BECN (bit 6) | reserved (bits 5-0, zero)    [RoCEv2]
   bytes 5-7  DestQP (24 bits)
   byte 8     A (bit 7) | INT fill (bit 6) | INT echo (bit 5) | hop echo (bits 4-0)
   bytes 9-11 PSN (24 bits)
   @endverbatim
 *
 * Reserved bits are always written as zero and ignored when read, but for llm-fabric's use of the
 * seven reserved bits of byte 8 (all covered by the ICRC: byte 8 is invariant; set only by the
 * sending NIC; Wireshark shows them as "Reserved (7 bits)"):
 * - bit 6, "INT fill", marks a data packet whose in-band telemetry (RoceIntHeader, between the
 *   payload and the ICRC) switches fill in (IntStamper);
 * - bit 5, "INT echo", an acknowledgement that carries a data packet's telemetry back to its
 *   sender (switches leave it alone);
 * - bits 4-0, the hop echo (SetHopEcho, 0 to 31): in ACKs and NAKs of a receiver whose congestion
 *   control asks for it (RdmaCongestionOps::NeedsHopEcho, Swift), the switches the acknowledged
 *   data packets crossed; zero everywhere else.
 */
class IbBthHeader : public Header
{
  public:
    /// Size of the header on the wire, in bytes.
    static constexpr uint32_t SIZE = 12;
    /// The UDP destination port that identifies RoCEv2 traffic.
    static constexpr uint16_t ROCEV2_UDP_PORT = 4791;
    /// Offset of the byte that holds the A bit and the telemetry bits.
    static constexpr uint32_t TELEMETRY_BYTE = 8;
    /// Byte 8, bit 6: an INT header for switches to fill precedes the ICRC (llm-fabric).
    static constexpr uint8_t TELEMETRY_FILL_BIT = 0x40;
    /// Byte 8, bit 5: an echoed INT header precedes the ICRC (llm-fabric).
    static constexpr uint8_t TELEMETRY_ECHO_BIT = 0x20;
    /// The default partition key (the full-membership default partition).
    static constexpr uint16_t DEFAULT_PARTITION_KEY = 0xFFFF;
    /// Largest value of a 24-bit field (DestQP, PSN).
    static constexpr uint32_t MAX_24BIT = 0xFFFFFF;

    /// Reliable connection: SEND First.
    static constexpr uint8_t RC_SEND_FIRST = 0x00;
    /// Reliable connection: SEND Middle.
    static constexpr uint8_t RC_SEND_MIDDLE = 0x01;
    /// Reliable connection: SEND Last.
    static constexpr uint8_t RC_SEND_LAST = 0x02;
    /// Reliable connection: SEND Last with Immediate.
    static constexpr uint8_t RC_SEND_LAST_IMM = 0x03;
    /// Reliable connection: SEND Only.
    static constexpr uint8_t RC_SEND_ONLY = 0x04;
    /// Reliable connection: SEND Only with Immediate.
    static constexpr uint8_t RC_SEND_ONLY_IMM = 0x05;
    /// Reliable connection: RDMA WRITE First.
    static constexpr uint8_t RC_RDMA_WRITE_FIRST = 0x06;
    /// Reliable connection: RDMA WRITE Middle.
    static constexpr uint8_t RC_RDMA_WRITE_MIDDLE = 0x07;
    /// Reliable connection: RDMA WRITE Last.
    static constexpr uint8_t RC_RDMA_WRITE_LAST = 0x08;
    /// Reliable connection: RDMA WRITE Last with Immediate.
    static constexpr uint8_t RC_RDMA_WRITE_LAST_IMM = 0x09;
    /// Reliable connection: RDMA WRITE Only.
    static constexpr uint8_t RC_RDMA_WRITE_ONLY = 0x0A;
    /// Reliable connection: RDMA WRITE Only with Immediate.
    static constexpr uint8_t RC_RDMA_WRITE_ONLY_IMM = 0x0B;
    /// Reliable connection: RDMA READ Request.
    static constexpr uint8_t RC_RDMA_READ_REQUEST = 0x0C;
    /// Reliable connection: RDMA READ response First.
    static constexpr uint8_t RC_RDMA_READ_RESPONSE_FIRST = 0x0D;
    /// Reliable connection: RDMA READ response Middle.
    static constexpr uint8_t RC_RDMA_READ_RESPONSE_MIDDLE = 0x0E;
    /// Reliable connection: RDMA READ response Last.
    static constexpr uint8_t RC_RDMA_READ_RESPONSE_LAST = 0x0F;
    /// Reliable connection: RDMA READ response Only.
    static constexpr uint8_t RC_RDMA_READ_RESPONSE_ONLY = 0x10;
    /// Reliable connection: Acknowledge.
    static constexpr uint8_t RC_ACKNOWLEDGE = 0x11;
    /// RoCEv2 Congestion Notification Packet.
    static constexpr uint8_t CNP = 0x81;

    /**
     * Create a header with every field at its default: opcode 0, TVer 0, P_Key 0xFFFF, all other
     * fields zero.
     */
    IbBthHeader();

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @param opcode a BTH opcode.
     * @return true if packets with this opcode carry an RDMA Extended Transport Header (RETH)
     *         after the BTH: RDMA WRITE First, WRITE Only, WRITE Only with Immediate and READ
     *         Request.
     */
    static bool HasReth(uint8_t opcode);

    /**
     * @param opcode a BTH opcode.
     * @return true if packets with this opcode carry an ACK Extended Transport Header (AETH)
     *         after the BTH: Acknowledge and RDMA READ response First, Last and Only.
     */
    static bool HasAeth(uint8_t opcode);

    /**
     * @param opcode a BTH opcode.
     * @return the opcode's constant name (for example "RC_RDMA_WRITE_ONLY"), or "UNKNOWN" for an
     *         opcode that has no constant in this class.
     */
    static std::string OpcodeName(uint8_t opcode);

    /**
     * @return the TypeId of this object (IbBthHeader).
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
     * Write the header in wire format, reserved bits as zero.
     * @param start where to write it.
     */
    void Serialize(Buffer::Iterator start) const override;

    /**
     * Read the header from wire format, ignoring reserved bits.
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
     * Read the header from its wire format in memory, as Deserialize does: for a receiver that
     * reads it at its fixed offset.
     * @param in its SIZE bytes.
     */
    void Read(const uint8_t* in);

    /**
     * @param opcode the OpCode (byte 0).
     */
    void SetOpcode(uint8_t opcode);
    /**
     * @return the OpCode (byte 0).
     */
    uint8_t GetOpcode() const;

    /**
     * @param solicitedEvent the Solicited Event bit (SE).
     */
    void SetSolicitedEvent(bool solicitedEvent);
    /**
     * @return the Solicited Event bit (SE).
     */
    bool GetSolicitedEvent() const;

    /**
     * @param migReq the MigReq bit (M), used to communicate migration state.
     */
    void SetMigReq(bool migReq);
    /**
     * @return the MigReq bit (M).
     */
    bool GetMigReq() const;

    /**
     * @param padCount the Pad Count: the number of pad bytes (0 to 3) appended to the payload to
     *        align it to a multiple of 4 bytes. Aborts if larger than 3.
     */
    void SetPadCount(uint8_t padCount);
    /**
     * @return the Pad Count (0 to 3).
     */
    uint8_t GetPadCount() const;

    /**
     * @param version the Transport header Version (TVer, 4 bits; 0 in the current
     *        specification). Aborts if larger than 15.
     */
    void SetTransportVersion(uint8_t version);
    /**
     * @return the Transport header Version (TVer).
     */
    uint8_t GetTransportVersion() const;

    /**
     * @param partitionKey the Partition Key (P_Key); 0xFFFF by default.
     */
    void SetPartitionKey(uint16_t partitionKey);
    /**
     * @return the Partition Key (P_Key).
     */
    uint16_t GetPartitionKey() const;

    /**
     * @param fecn the Forward Explicit Congestion Notification bit (RoCEv2 byte 4, bit 7).
     */
    void SetFecn(bool fecn);
    /**
     * @return the FECN bit.
     */
    bool GetFecn() const;

    /**
     * @param becn the Backward Explicit Congestion Notification bit (RoCEv2 byte 4, bit 6); set
     *        in CNPs.
     */
    void SetBecn(bool becn);
    /**
     * @return the BECN bit.
     */
    bool GetBecn() const;

    /**
     * @param destQp the Destination Queue Pair number (24 bits). Aborts if larger than 0xFFFFFF.
     */
    void SetDestQp(uint32_t destQp);
    /**
     * @return the Destination Queue Pair number.
     */
    uint32_t GetDestQp() const;

    /**
     * @param ackRequest the Acknowledge Request bit (A): the responder should acknowledge this
     *        packet.
     */
    void SetAckRequest(bool ackRequest);
    /**
     * @return the Acknowledge Request bit (A).
     */
    bool GetAckRequest() const;

    /**
     * @param fill the packet carries an INT header (RoceIntHeader) before its ICRC for switches
     *        to fill (byte 8 bit 6, llm-fabric's extension).
     */
    void SetTelemetryFill(bool fill);
    /**
     * @return whether the packet carries an INT header for switches to fill.
     */
    bool GetTelemetryFill() const;

    /**
     * @param echo the packet (an acknowledgement) carries an echoed INT header before its ICRC
     *        (byte 8 bit 5, llm-fabric's extension).
     */
    void SetTelemetryEcho(bool echo);
    /**
     * @return whether the packet carries an echoed INT header.
     */
    bool GetTelemetryEcho() const;

    /**
     * @param hops the hop echo (0 to 31): in an ACK or NAK, the number of switches the data
     *        packets it acknowledges crossed (their IPv4 TTL's decrease), in the reserved bits
     *        4-0 of byte 8. Aborts if above 31.
     */
    void SetHopEcho(uint8_t hops);
    /**
     * @return the hop echo (byte 8, bits 4-0; 0 when not set).
     */
    uint8_t GetHopEcho() const;

    /**
     * @param psn the Packet Sequence Number (24 bits). Aborts if larger than 0xFFFFFF.
     */
    void SetPsn(uint32_t psn);
    /**
     * @return the Packet Sequence Number.
     */
    uint32_t GetPsn() const;

  private:
    uint8_t m_opcode;        ///< OpCode.
    bool m_solicitedEvent;   ///< Solicited Event bit (SE).
    bool m_migReq;           ///< MigReq bit (M).
    uint8_t m_padCount;      ///< Pad Count (2 bits).
    uint8_t m_tver;          ///< Transport header Version (4 bits).
    uint16_t m_partitionKey; ///< Partition Key (P_Key).
    bool m_fecn;             ///< Forward Explicit Congestion Notification bit.
    bool m_becn;             ///< Backward Explicit Congestion Notification bit.
    uint32_t m_destQp;       ///< Destination Queue Pair number (24 bits).
    bool m_ackRequest;       ///< Acknowledge Request bit (A).
    bool m_telemetryFill;    ///< INT header to fill (byte 8 bit 6).
    bool m_telemetryEcho;    ///< echoed INT header (byte 8 bit 5).
    uint8_t m_hopEcho;       ///< Byte 8 bits 4-0: the hop echo of ACKs (0 otherwise).
    uint32_t m_psn;          ///< Packet Sequence Number (24 bits).
};

} // namespace ns3

#endif /* IB_BTH_HEADER_H */
