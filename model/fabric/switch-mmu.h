/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWITCH_MMU_H
#define SWITCH_MMU_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/queue-size.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Shared-buffer memory management unit of a switch: admission, PFC thresholds, ECN.
 *
 * Accounting follows the ingress priority groups of Broadcom-style switches. A packet that
 * arrives on ingress port i with priority p is charged to the group (i, p): first to its
 * reserved bytes (ReservedBytes), then to the shared pool, whose per-group allowance is either
 * dynamic (Alpha x the free shared pool, as in Choudhury and Hahne's dynamic threshold) or a
 * static byte count; for a lossless priority, bytes beyond the allowance go to the group's
 * headroom and the group enters XOFF (the switch sends PFC pause upstream). The group leaves
 * XOFF (XON) when its headroom is empty and its shared use has fallen ResumeOffset below the
 * allowance. A lossy priority has no headroom: beyond the allowance the packet is dropped.
 * The shared pool is Buffer minus all reserved bytes minus all lossless headroom.
 *
 * It also keeps the egress queue length of every (port, priority) and decides ECN marking by
 * RED on that instantaneous length: no mark below Kmin, probability rising linearly to Pmax at
 * Kmax, always above Kmax; only ECN-capable packets are marked.
 *
 * The switch calls Admit when a packet arrives, Release when it leaves the egress queue, and
 * DecideEcnMark before enqueuing an ECT packet. The MMU models no time: it is pure accounting.
 */
class SwitchMmu : public Object
{
  public:
    /// Priorities per port (the eight of IEEE 802.1Q).
    static constexpr uint32_t PRIORITIES = 8;

    /// How the per-group share of the shared pool is computed.
    enum ThresholdMode
    {
        DYNAMIC, //!< allowance = Alpha x (shared pool - shared bytes in use)
        STATIC   //!< allowance = StaticThreshold bytes
    };

    /// The outcome of Admit.
    enum Verdict
    {
        ACCEPT,             //!< admitted
        DROP_LOSSY_LIMIT,   //!< lossy priority above its shared allowance
        DROP_HEADROOM_FULL, //!< lossless priority whose headroom is exhausted
        DROP_BUFFER_FULL    //!< no byte left in the whole buffer
    };

    /// What Admit decided.
    struct Admission
    {
        Verdict verdict{ACCEPT}; //!< accepted or why not
        bool xoff{false};        //!< true if this packet moved its group into XOFF
    };

    /**
     * Signature of the Drop trace.
     * @param inPort ingress port.
     * @param priority priority.
     * @param bytes size of the dropped packet.
     * @param reason "lossy-limit", "headroom-full" or "buffer-full".
     */
    typedef void (*DropTracedCallback)(uint32_t inPort,
                                       uint8_t priority,
                                       uint32_t bytes,
                                       const std::string& reason);

    /**
     * Signature of the Xoff and Xon traces.
     * @param inPort ingress port.
     * @param priority priority.
     */
    typedef void (*PfcStateTracedCallback)(uint32_t inPort, uint8_t priority);

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    SwitchMmu();
    ~SwitchMmu() override;

    /**
     * Size the MMU for a switch: called once, before Initialize, with the switch's ports.
     * @param rates the rate of each port's link (index = port number).
     * @param delays the propagation delay of each port's link.
     */
    void ConfigurePorts(const std::vector<DataRate>& rates, const std::vector<Time>& delays);

    /**
     * Check the configuration.
     * @return "" if consistent, otherwise the problem, naming the attribute and its value (for
     *         example "Kmin (400000 B) is above Kmax (200000 B)", "Pmax (1.5) is outside [0, 1]",
     *         "reserved (..) plus headroom (..) exceed Buffer (..)").
     */
    std::string CheckConfig() const;

    /**
     * The headroom of a lossless group on a port: HeadroomBytes if set, otherwise
     * 2 x delay x rate (a pause travels upstream while the peer keeps sending, and what it sent
     * is still in flight) + 2 x MaxFrameSize (a frame in serialization at each end) + one PFC
     * frame (64 B) + PeerResponseTime x rate.
     * @param port the ingress port.
     * @return the headroom in bytes.
     */
    uint32_t GetHeadroom(uint32_t port) const;

    /**
     * Admit a packet or not, and charge it.
     * @param inPort ingress port.
     * @param outPort egress port (its egress queue length grows if admitted).
     * @param priority the packet's priority (0-7).
     * @param bytes its size in bytes.
     * @return the verdict and whether the group just entered XOFF.
     */
    Admission Admit(uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes);

    /**
     * Release an admitted packet that has left its egress queue.
     * @param inPort ingress port it arrived on.
     * @param outPort egress port it left from.
     * @param priority its priority.
     * @param bytes its size.
     * @return true if this release moved the group (inPort, priority) from XOFF to XON.
     */
    bool Release(uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes);

    /**
     * @param inPort ingress port.
     * @param priority priority.
     * @return true while the group is in XOFF.
     */
    bool IsXoff(uint32_t inPort, uint8_t priority) const;

    /**
     * The RED marking probability for an egress queue length.
     * @param queueBytes the instantaneous egress queue length in bytes.
     * @return 0 at or below Kmin, Pmax x (q - Kmin) / (Kmax - Kmin) between, 1 above Kmax.
     */
    double GetMarkProbability(uint32_t queueBytes) const;

    /**
     * The RED marking probability for an egress queue length of a port, with that port's
     * thresholds (GetKmin, GetKmax).
     * @param outPort egress port.
     * @param queueBytes the instantaneous egress queue length in bytes.
     * @return 0 at or below its Kmin, Pmax x (q - Kmin) / (Kmax - Kmin) between, 1 above its
     * Kmax.
     */
    double GetMarkProbability(uint32_t outPort, uint32_t queueBytes) const;

    /**
     * @param outPort egress port.
     * @return its RED lower threshold in bytes: Kmin, or Kmin x the port's rate /
     * EcnReferenceRate when EcnReferenceRate is positive (rounded down).
     */
    uint32_t GetKmin(uint32_t outPort) const;

    /**
     * @param outPort egress port.
     * @return its RED upper threshold in bytes: Kmax, scaled as GetKmin scales Kmin.
     */
    uint32_t GetKmax(uint32_t outPort) const;

    /**
     * Decide whether to mark an ECN-capable packet about to join the egress queue
     * (outPort, priority), from that queue's current length (without the packet).
     * @param outPort egress port.
     * @param priority priority.
     * @return true to set CE.
     */
    bool DecideEcnMark(uint32_t outPort, uint8_t priority);

    /// @return the shared pool size in bytes (Buffer - reserved - lossless headroom).
    uint32_t GetSharedPoolSize() const;
    /// @return shared-pool bytes in use.
    uint32_t GetSharedUsed() const;
    /// @return all bytes in the buffer.
    uint32_t GetTotalUsed() const;
    /**
     * @param inPort ingress port.
     * @param priority priority.
     * @return the current shared allowance of the group in bytes (dynamic or static).
     */
    uint32_t GetSharedAllowance(uint32_t inPort, uint8_t priority) const;
    /**
     * @param inPort ingress port.
     * @param priority priority.
     * @return bytes charged to the group (reserved + shared + headroom).
     */
    uint32_t GetIngressBytes(uint32_t inPort, uint8_t priority) const;
    /**
     * @param inPort ingress port.
     * @param priority priority.
     * @return headroom bytes in use by the group.
     */
    uint32_t GetHeadroomUsed(uint32_t inPort, uint8_t priority) const;
    /**
     * @param outPort egress port.
     * @param priority priority.
     * @return bytes in that egress queue.
     */
    uint32_t GetEgressBytes(uint32_t outPort, uint8_t priority) const;
    /**
     * @param priority a priority.
     * @return true if it is lossless (LosslessPriorities has its bit).
     */
    bool IsLossless(uint8_t priority) const;

    /**
     * Assign a fixed random variable stream number to the ECN marking variable.
     * @param stream first stream index to use.
     * @return the number of streams assigned (1).
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    /**
     * The shared pool size for the current attributes and ports.
     * @return Buffer - all reserved bytes - all lossless headroom, or a negative number if
     *         reserved and headroom exceed Buffer.
     */
    int64_t ComputeSharedPool() const;

    /**
     * The headroom formula without the HeadroomBytes override.
     * @param port the ingress port.
     * @return the headroom in bytes, before clamping to 32 bits.
     */
    uint64_t ComputeHeadroom(uint32_t port) const;

    /**
     * @param bytes a threshold at EcnReferenceRate (positive).
     * @param portRate a port's rate.
     * @return bytes x portRate / EcnReferenceRate, rounded down, at most 2^32 - 1.
     */
    uint32_t ScaleThreshold(uint32_t bytes, DataRate portRate) const;

    /**
     * RED's marking probability.
     * @param kmin lower threshold, bytes.
     * @param kmax upper threshold, bytes.
     * @param queueBytes the queue length, bytes.
     * @return 0 at or below kmin, Pmax x (q - kmin) / (kmax - kmin) between, 1 above kmax.
     */
    double RedProbability(uint32_t kmin, uint32_t kmax, uint32_t queueBytes) const;

    /**
     * Abort unless the port and priority are valid. Inline, since it runs several times per
     * frame: the test is two compares; the message is built out of line (IndexError).
     * @param port a port.
     * @param priority a priority.
     * @param what the caller's name, for the message.
     */
    void CheckIndex(uint32_t port, uint8_t priority, const char* what) const
    {
        if (port >= m_ports || priority >= PRIORITIES)
        {
            IndexError(port, priority, what);
        }
    }

    /**
     * Abort with the message of an invalid port or priority.
     * @param port a port.
     * @param priority a priority.
     * @param what the caller's name, for the message.
     */
    [[noreturn]] void IndexError(uint32_t port, uint8_t priority, const char* what) const;

    /// A group's counters (ingress port * 8 + priority), together: Admit and Release read and
    /// write all of them for a frame.
    struct Group
    {
        uint32_t reservedUsed{0}; //!< reserved bytes in use
        uint32_t shared{0};       //!< shared bytes in use
        uint32_t headroomUsed{0}; //!< headroom bytes in use
        uint32_t xoff{0};         //!< 1 while the group is in XOFF

        /// @return the bytes charged to the group (reserved, shared and headroom).
        uint64_t Bytes() const
        {
            return static_cast<uint64_t>(reservedUsed) + shared + headroomUsed;
        }
    };

    // Read per frame (Admit, Release, ECN marking), and so kept together: spread over the
    // object and over five vectors they cost more cache misses than their arithmetic.
    bool m_ready;                     //!< DoInitialize has run.
    ThresholdMode m_mode;             //!< ThresholdMode: dynamic or static allowance.
    uint32_t m_losslessMask;          //!< LosslessPriorities: bit p set if priority p is lossless.
    double m_alpha;                   //!< Alpha: dynamic threshold factor.
    uint32_t m_ports;                 //!< Number of ports (0 until ConfigurePorts).
    uint32_t m_sharedPool;            //!< Shared pool size, bytes (derived at DoInitialize).
    uint32_t m_bufferBytes;           //!< Buffer, bytes (derived).
    uint32_t m_reservedBytes;         //!< ReservedBytes, bytes (derived).
    uint32_t m_resumeBytes;           //!< ResumeOffset, bytes (derived).
    uint32_t m_sharedUsed;            //!< Shared bytes in use, all groups.
    uint32_t m_totalUsed;             //!< All bytes in the buffer.
    double m_pmax;                    //!< Pmax: marking probability at Kmax.
    std::vector<Group> m_groups;      //!< Counters of each group.
    std::vector<uint32_t> m_egress;   //!< Bytes in each egress queue (port * 8 + priority).
    std::vector<uint32_t> m_headroom; //!< Headroom of each port's lossless groups, bytes.
    std::vector<uint32_t> m_kminPort; //!< Kmin of each egress port, bytes.
    std::vector<uint32_t> m_kmaxPort; //!< Kmax of each egress port, bytes.
    Ptr<UniformRandomVariable> m_uniform; //!< Draws for ECN marking.

    // Attributes (the others are above).
    QueueSize m_buffer;          //!< Buffer: the whole packet buffer.
    QueueSize m_reserved;        //!< ReservedBytes: per (ingress port, priority) guarantee.
    QueueSize m_headroomBytes;   //!< HeadroomBytes: lossless headroom override (0: formula).
    QueueSize m_resumeOffset;    //!< ResumeOffset: XON hysteresis below the allowance.
    QueueSize m_staticThreshold; //!< StaticThreshold: allowance in STATIC mode.
    uint32_t m_maxFrameSize;     //!< MaxFrameSize: largest frame, bytes.
    Time m_peerResponseTime;     //!< PeerResponseTime: upstream reaction time to a pause.
    QueueSize m_kmin;            //!< Kmin: RED lower threshold.
    QueueSize m_kmax;            //!< Kmax: RED upper threshold.
    DataRate m_ecnReferenceRate; //!< EcnReferenceRate: Kmin, Kmax scale per port (0: off).

    // Ports, from ConfigurePorts.
    std::vector<DataRate> m_rates; //!< Link rate of each port.
    std::vector<Time> m_delays;    //!< Link delay of each port.

    /// Drop trace: (ingress port, priority, bytes, reason).
    TracedCallback<uint32_t, uint8_t, uint32_t, const std::string&> m_dropTrace;
    /// Xoff trace: (ingress port, priority) entered XOFF.
    TracedCallback<uint32_t, uint8_t> m_xoffTrace;
    /// Xon trace: (ingress port, priority) left XOFF.
    TracedCallback<uint32_t, uint8_t> m_xonTrace;
};

} // namespace ns3

#endif /* SWITCH_MMU_H */
