/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The body of an IEEE 802.1Qbb priority-based flow control (PFC) frame.
 *
 * A PFC frame is a MAC Control frame: an Ethernet header whose destination is the reserved
 * multicast address 01-80-C2-00-00-01 (GetPfcDestination()) and whose EtherType is 0x8808
 * (ETHER_TYPE), followed by this header, followed by the FCS. The body (802.1Qbb clause 36,
 * 802.3 Annex 31D) is, in network byte order:
 *
 * @verbatim
   offset  size  field
        0     2  MAC Control opcode, 0x0101 (OPCODE)
        2     2  priority-enable vector: upper octet reserved (zero), bit i of the lower
                 octet enables priority i (e[0] is the least significant bit)
        4    16  time[0] .. time[7], one 2-byte pause time per priority, priority 0 first,
                 in quanta of 512 bit times at the speed of the port
       20    26  reserved, transmitted as zeros
 @endverbatim
 *
 * The body is BODY_SIZE (46) bytes, so that with the 14-byte Ethernet header and the 4-byte FCS
 * the frame is the 64-byte Ethernet minimum. A pause time of zero for an enabled priority tells
 * the peer to resume that priority at once; the time of a priority whose enable bit is clear is
 * to be ignored by the receiver.
 *
 * Deserialize() accepts any MAC Control opcode; a frame whose opcode is not OPCODE (for example
 * an 802.3x PAUSE, opcode 0x0001) is not a PFC frame, which IsValid() reports.
 */
class PfcHeader : public Header
{
  public:
    /// The MAC Control opcode of a PFC frame.
    static constexpr uint16_t OPCODE = 0x0101;
    /// The EtherType of MAC Control frames.
    static constexpr uint16_t ETHER_TYPE = 0x8808;
    /// Size of the frame body in bytes (opcode, vector, eight times and padding).
    static constexpr uint32_t BODY_SIZE = 46;
    /// Length of one pause quantum, in bit times.
    static constexpr uint32_t QUANTUM_BITS = 512;
    /// Number of priorities a PFC frame addresses.
    static constexpr uint8_t NUM_PRIORITIES = 8;
    /// The largest pause time a frame can carry, in quanta.
    static constexpr uint16_t MAX_QUANTA = 0xFFFF;

    /**
     * Construct a PFC body with opcode OPCODE, no priority enabled and all times zero.
     */
    PfcHeader();

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @return the destination MAC address of PFC frames, 01:80:c2:00:00:01.
     */
    static Mac48Address GetPfcDestination();

    /**
     * Pause a priority: set its pause time and its enable bit.
     * @param priority the priority, 0 to 7 (aborts otherwise).
     * @param quanta the pause time in quanta of 512 bit times; 0 means resume at once.
     */
    void SetPauseTime(uint8_t priority, uint16_t quanta);

    /**
     * Resume a priority: set its enable bit with a pause time of zero.
     * @param priority the priority, 0 to 7 (aborts otherwise).
     */
    void SetResume(uint8_t priority);

    /**
     * Leave a priority out of the frame: clear its enable bit and zero its time.
     * @param priority the priority, 0 to 7 (aborts otherwise).
     */
    void ClearPriority(uint8_t priority);

    /**
     * @param priority the priority, 0 to 7 (aborts otherwise).
     * @return the time field of that priority in quanta, as set or as received; it is only
     *         meaningful if IsEnabled(priority).
     */
    uint16_t GetPauseTime(uint8_t priority) const;

    /**
     * @param priority the priority, 0 to 7 (aborts otherwise).
     * @return true if the enable bit of that priority is set.
     */
    bool IsEnabled(uint8_t priority) const;

    /**
     * @return the priority-enable vector (bit i = priority i).
     */
    uint8_t GetClassEnableVector() const;

    /**
     * Set the whole priority-enable vector; the time fields are left unchanged.
     * @param vector the vector (bit i = priority i).
     */
    void SetClassEnableVector(uint8_t vector);

    /**
     * @return the MAC Control opcode: OPCODE unless a frame with another opcode was
     *         deserialized.
     */
    uint16_t GetOpcode() const;

    /**
     * @return true if the opcode is OPCODE, i.e. this is a PFC frame.
     */
    bool IsValid() const;

    /**
     * The length of a pause, rounded down to the time resolution of the simulator.
     *
     * The exact value is quanta * 512 bits at the given rate (for example one quantum at
     * 100 Gb/s is 5.12 ns); it is computed in integers, without floating point.
     * @param quanta a pause time in quanta.
     * @param rate the speed of the port (aborts if zero).
     * @return the pause duration.
     */
    static Time QuantaToTime(uint16_t quanta, DataRate rate);

    /**
     * The number of quanta needed to pause for at least a given time.
     * @param t a duration; zero or negative gives 0.
     * @param rate the speed of the port (aborts if zero).
     * @return the smallest number of quanta whose duration is at least t, or MAX_QUANTA if t is
     *         longer than MAX_QUANTA quanta.
     */
    static uint16_t TimeToQuanta(Time t, DataRate rate);

    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;

    /**
     * Read a MAC Control frame body. It consumes BODY_SIZE bytes (every MAC Control frame body
     * has that size), whatever the opcode; check IsValid() afterwards. If fewer than BODY_SIZE
     * bytes are left, nothing is read, the opcode is set to 0 (so IsValid() is false) and 0 is
     * returned.
     * @param start where the body begins.
     * @return the number of bytes read: BODY_SIZE, or 0 if the buffer is too short.
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    /**
     * Abort if a priority is out of range.
     * @param priority the priority to check.
     */
    static void CheckPriority(uint8_t priority);

    uint16_t m_opcode;                                  //!< MAC Control opcode
    uint8_t m_classEnableVector;                        //!< bit i enables priority i
    std::array<uint16_t, NUM_PRIORITIES> m_pauseQuanta; //!< time[i], in quanta
};

} // namespace ns3

#endif /* PFC_HEADER_H */
