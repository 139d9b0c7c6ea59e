/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_AETH_HEADER_H
#define IB_AETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The InfiniBand ACK Extended Transport Header (AETH, IBA specification volume 1, section
 * 9.3.5), which follows the BTH in Acknowledge packets and in RDMA READ response First, Last and
 * Only packets.
 *
 * Wire layout, 4 bytes:
 * @verbatim
   byte 0     Syndrome
   bytes 1-3  MSN, Message Sequence Number (24 bits, big-endian)
   @endverbatim
 *
 * Syndrome (section 9.7.5.1.1, table 43):
 * @verbatim
   bit 7      reserved, zero
   bits 6-5   type: 00 ACK, 01 RNR NAK, 10 reserved, 11 NAK
   bits 4-0   ACK: credit count (0x1F = invalid credit, no end-to-end flow control)
              RNR NAK: RNR timer code
              NAK: NAK code
   @endverbatim
 *
 * The syndrome is kept raw, so a received syndrome with the reserved type is preserved as read;
 * the setters only produce valid syndromes.
 */
class IbAethHeader : public Header
{
  public:
    /// Size of the header on the wire, in bytes.
    static constexpr uint32_t SIZE = 4;
    /// Credit count meaning "invalid credit": the responder does no end-to-end flow control.
    static constexpr uint8_t INVALID_CREDIT = 0x1F;
    /// Largest value of the 5-bit syndrome value field (credit count, RNR timer, NAK code).
    static constexpr uint8_t MAX_SYNDROME_VALUE = 0x1F;
    /// Largest Message Sequence Number (24 bits).
    static constexpr uint32_t MAX_MSN = 0xFFFFFF;

    /**
     * The type of an AETH, syndrome bits 6-5.
     */
    enum class AethType : uint8_t
    {
        ACK = 0,      ///< Positive acknowledgement (00).
        RNR_NAK = 1,  ///< Receiver Not Ready negative acknowledgement (01).
        RESERVED = 2, ///< Reserved encoding (10); only found in received headers.
        NAK = 3,      ///< Negative acknowledgement (11).
    };

    /**
     * The NAK codes, syndrome bits 4-0 of a NAK.
     */
    enum class NakCode : uint8_t
    {
        PSN_SEQUENCE_ERROR = 0,       ///< PSN sequence error.
        INVALID_REQUEST = 1,          ///< Invalid request.
        REMOTE_ACCESS_ERROR = 2,      ///< Remote access error.
        REMOTE_OPERATIONAL_ERROR = 3, ///< Remote operational error.
        INVALID_RD_REQUEST = 4,       ///< Invalid RD request.
    };

    /**
     * Create an ACK with invalid credit (syndrome 0x1F) and MSN 0.
     */
    IbAethHeader();

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @param type an AETH type.
     * @return its name ("ACK", "RNR_NAK", "NAK" or "RESERVED").
     */
    static std::string TypeName(AethType type);

    /**
     * @param code a NAK code.
     * @return its name (for example "PSN_SEQUENCE_ERROR"), or "UNKNOWN" for a reserved code.
     */
    static std::string NakCodeName(NakCode code);

    /**
     * @return the TypeId of this object (IbAethHeader).
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
     * Read the header from wire format. The syndrome is kept as read, even if its type is the
     * reserved encoding or bit 7 is set.
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
     * Make this an ACK.
     * @param creditCount the credit count (0 to 0x1F); INVALID_CREDIT by default. Aborts if
     *        larger than 0x1F.
     */
    void SetAck(uint8_t creditCount = INVALID_CREDIT);

    /**
     * Make this a NAK.
     * @param code the NAK code.
     */
    void SetNak(NakCode code);

    /**
     * Make this an RNR NAK.
     * @param timer the RNR timer code (0 to 0x1F) telling the requester how long to wait before
     *        retrying. Aborts if larger than 0x1F.
     */
    void SetRnrNak(uint8_t timer);

    /**
     * @return the type, syndrome bits 6-5.
     */
    AethType GetType() const;

    /**
     * @return true if this is an ACK.
     */
    bool IsAck() const;

    /**
     * @return true if this is a NAK.
     */
    bool IsNak() const;

    /**
     * @return true if this is an RNR NAK.
     */
    bool IsRnrNak() const;

    /**
     * @return the NAK code, syndrome bits 4-0. Aborts if this is not a NAK. A received NAK with
     *         a reserved code returns that code unchanged.
     */
    NakCode GetNakCode() const;

    /**
     * @return the credit count of an ACK, syndrome bits 4-0 (INVALID_CREDIT if none). Aborts if
     *         this is not an ACK.
     */
    uint8_t GetCreditCount() const;

    /**
     * @return the RNR timer code of an RNR NAK, syndrome bits 4-0. Aborts if this is not an RNR
     *         NAK.
     */
    uint8_t GetRnrTimer() const;

    /**
     * @param msn the Message Sequence Number (24 bits). Aborts if larger than 0xFFFFFF.
     */
    void SetMsn(uint32_t msn);

    /**
     * @return the Message Sequence Number.
     */
    uint32_t GetMsn() const;

    /**
     * Set the raw syndrome byte. Aborts if bit 7 is set or the type bits are the reserved
     * encoding 10.
     * @param syndrome the syndrome byte.
     */
    void SetSyndrome(uint8_t syndrome);

    /**
     * @return the raw syndrome byte.
     */
    uint8_t GetSyndrome() const;

  private:
    uint8_t m_syndrome; ///< Raw syndrome byte.
    uint32_t m_msn;     ///< Message Sequence Number (24 bits).
};

} // namespace ns3

#endif /* IB_AETH_HEADER_H */
