/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_WATCHDOG_H
#define PFC_WATCHDOG_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RoceSwitch;

/**
 * @ingroup llm-fabric
 * @brief The PFC watchdog of one switch, as switch operating systems ship it (SONiC's pfcwd):
 * detection, mitigation and restoration of PFC storms on the lossless egress queues.
 *
 * Detection: an egress queue (port, lossless priority) that the peer's PFC pauses
 * continuously for DetectionTime is in a storm. The timer is armed when the pause starts
 * (RoceNetDevice trace PauseState) and cancelled when it ends, so a pause that the peer keeps
 * refreshing triggers and one that ends earlier does not; nothing runs while no queue is
 * paused (no polling). SONiC polls (its detection takes up to one poll interval longer); its
 * shipped default detection time is 200 ms (sonic-buildimage pfcwd defaults; its test plan
 * uses 400 ms).
 *
 * Mitigation (Action): Drop (SONiC's default action) drops the frames in the queue and every
 * frame that arrives for it (their buffer is released from the MMU, so the ingress groups
 * holding them resume), and the port ignores pauses of that priority; Forward ignores the
 * pauses and transmits the queue.
 *
 * Restoration: the queue returns to normal (pauses honoured, nothing dropped) once no PFC pause
 * of that priority has been received on the port for RestorationTime (SONiC's restoration
 * rule; default 200 ms, SONiC's shipped default). A pause that arrives afterwards starts a new
 * detection.
 *
 * Storms detected, restorations and frames dropped are counted; each change of a queue's state
 * is traced (StormState). A watchdog belongs to one switch (RoceSwitch::PfcWatchdogEnabled
 * creates one at initialization with this class's attribute defaults).
 */
class PfcWatchdog : public Object
{
  public:
    /// What a queue in a storm does.
    enum Action
    {
        DROP,   //!< drop its frames and ignore pauses
        FORWARD //!< ignore pauses and transmit
    };

    /// The state of an egress queue.
    enum State
    {
        OPERATIONAL = 0,     //!< normal: pauses honoured
        STORM_DROPPING = 1,  //!< in a storm, Action Drop
        STORM_FORWARDING = 2 //!< in a storm, Action Forward
    };

    /**
     * Signature of the StormState trace.
     * @param port egress port of the switch.
     * @param priority the priority.
     * @param state the state the queue enters.
     * @param time when.
     */
    typedef void (*StormStateTracedCallback)(uint32_t port,
                                             uint8_t priority,
                                             PfcWatchdog::State state,
                                             Time time);

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfcWatchdog();
    ~PfcWatchdog() override;

    /**
     * Watch every port of a switch (called by the switch at initialization, after its ports
     * are added): connects to each port's PauseState trace.
     * @param sw the switch; it outlives the watchdog's use (it owns the watchdog).
     */
    void Attach(RoceSwitch* sw);

    /**
     * @param port egress port.
     * @param priority priority.
     * @return true while that queue is in a storm with Action Drop (the switch drops arrivals).
     */
    bool IsDropping(uint32_t port, uint8_t priority) const
    {
        return m_queues[port * PRIORITIES + priority].state == STORM_DROPPING;
    }

    /**
     * Count a frame the switch dropped because its queue is dropping.
     */
    void CountDrop()
    {
        ++m_framesDropped;
    }

    /**
     * @param port egress port.
     * @param priority priority.
     * @return the queue's state.
     */
    State GetState(uint32_t port, uint8_t priority) const;

    /// @return storms detected (queues that entered a storm state), all queues.
    uint64_t GetStormsDetected() const;

    /// @return storms ended (queues restored), all queues.
    uint64_t GetRestorations() const;

    /// @return frames dropped by Action Drop (queued and arriving), all queues.
    uint64_t GetFramesDropped() const;

    /// @return DetectionTime.
    Time GetDetectionTime() const;

    /// @return RestorationTime.
    Time GetRestorationTime() const;

  protected:
    void DoDispose() override;

  private:
    /// Priorities per port.
    static constexpr uint32_t PRIORITIES = 8;

    /// One egress queue.
    struct Queue
    {
        State state{OPERATIONAL}; //!< its state
        EventId timer;            //!< detection or restoration check
        Time stormStart;          //!< when its storm was detected
    };

    /**
     * PauseState trace sink (the port's callback holds the watchdog).
     * @param wd the watchdog.
     * @param port the port.
     * @param priority the priority.
     * @param paused pause starts or ends.
     */
    static void PauseStateSink(Ptr<PfcWatchdog> wd, uint32_t port, uint8_t priority, bool paused);

    /**
     * A pause of a queue starts or ends.
     * @param port the port.
     * @param priority the priority.
     * @param paused pause starts or ends.
     */
    void PauseChanged(uint32_t port, uint8_t priority, bool paused);

    /**
     * The detection timer of a queue expired: it has been paused for DetectionTime.
     * @param port the port.
     * @param priority the priority.
     */
    void Detect(uint32_t port, uint8_t priority);

    /**
     * Restore a queue if no pause has arrived for RestorationTime, else check again then.
     * @param port the port.
     * @param priority the priority.
     */
    void CheckRestoration(uint32_t port, uint8_t priority);

    Time m_detectionTime;   //!< DetectionTime
    Time m_restorationTime; //!< RestorationTime
    Action m_action;        //!< Action

    RoceSwitch* m_switch;        //!< the switch watched
    std::vector<Queue> m_queues; //!< per port x priority
    uint64_t m_storms;           //!< storms detected
    uint64_t m_restorations;     //!< queues restored
    uint64_t m_framesDropped;    //!< frames dropped

    TracedCallback<uint32_t, uint8_t, State, Time> m_stormStateTrace; //!< state changes
};

} // namespace ns3

#endif /* PFC_WATCHDOG_H */
