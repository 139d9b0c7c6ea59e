/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LEAN_SIMULATOR_IMPL_H
#define LEAN_SIMULATOR_IMPL_H

#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <atomic>
#include <cstdint>
#include <list>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief ns-3's sequential simulator, run with less work per event: the same events at the
 * same times in the same order as ns-3's DefaultSimulatorImpl, without its per-event hook and
 * logging.
 *
 * ns-3's DefaultSimulatorImpl builds an EventId for every event it runs (to hand to
 * SimulatorImpl::PreEventHook, which only the visualizer's subclass uses) and tests its log
 * component several times per event scheduled and run; for a packet-level run whose events do
 * a few hundred instructions of work each, that is a tenth of the run. This implementation
 * keeps DefaultSimulatorImpl's semantics in full and skips those:
 * - an event's key is (time, context, uid), uids counted as DefaultSimulatorImpl counts them
 *   (from EventId::VALID, one per event scheduled, now, with a context or for destroy), so the
 *   scheduler (any SchedulerType) takes events out in the same order and a run's results are
 *   the same;
 * - ScheduleWithContext from a thread other than the one that runs the simulation queues the
 *   event, which is inserted, at the time it asked for from the clock then, before the next
 *   event runs, as DefaultSimulatorImpl does;
 * - Cancel, Remove, IsExpired, GetDelayLeft, Stop, destroy events and SetScheduler behave as
 *   DefaultSimulatorImpl's; on Dispose the pending events leave the scheduler through
 *   RemoveNext (which WindowedCalendarScheduler relies on).
 *
 * It does not call PreEventHook. Chosen as ns-3 chooses a simulator implementation:
 * `--SimulatorImplementationType=ns3::LeanSimulatorImpl`, the SimulatorImplementationType
 * global value, or Simulator::SetImplementation; the module's programs run on it
 * (ProgramOptions binds it unless the command line or NS_GLOBAL_VALUE chooses another).
 */
class LeanSimulatorImpl : public SimulatorImpl
{
  public:
    /**
     * Register this type.
     * @return the object TypeId.
     */
    static TypeId GetTypeId();

    LeanSimulatorImpl();
    ~LeanSimulatorImpl() override;

    /// What SimulatorImpl::Stop(const Time&) returns in this ns-3 (void up to 3.37, an EventId
    /// since).
    using StopAfterResult =
        decltype(std::declval<SimulatorImpl&>().Stop(std::declval<const Time&>()));

    /**
     * Schedule an event with a context, as Simulator::ScheduleWithContext does (the same
     * time, context and uid, so the same order), for events a model schedules per frame from
     * inside the simulation. While a LeanSimulatorImpl runs (Run, on its thread) the event goes
     * straight into it, without ns-3's static Simulator wrapper (its log test and the lookup
     * of the implementation) and without ScheduleWithContext's thread check; otherwise through
     * Simulator::ScheduleWithContext. Call it only from the simulation's own thread (from an
     * event, or before Run).
     * @param context the event's context.
     * @param delay the delay from now, in time steps (Time::GetTimeStep).
     * @param event the event; the simulator takes over one reference, as ScheduleWithContext.
     */
    static void ScheduleStepsWithContext(uint32_t context, uint64_t delay, EventImpl* event);

    /**
     * Schedule an event in the running event's context, as Simulator::Schedule does, but
     * returning no EventId (see ScheduleStepsWithContext for when it goes straight in).
     * @param delay the delay from now, in time steps.
     * @param event the event; the simulator takes over one reference.
     */
    static void ScheduleSteps(uint64_t delay, EventImpl* event);

    /**
     * Take a pending event out of the scheduler, as Simulator::Remove does, but without
     * cancelling its EventImpl, so that the object can be scheduled again: for a model that
     * keeps one event object for a timer it moves often (no allocation per move). Only while
     * a LeanSimulatorImpl runs (from an event, on its thread); otherwise it does nothing and
     * returns false, and the caller removes the event with Simulator::Remove, which cancels
     * the object for good.
     * @param id the event.
     * @return whether it was pending and is taken out.
     */
    static bool Withdraw(const EventId& id);

    // Inherited from SimulatorImpl.
    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    StopAfterResult Stop(const Time& delay) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * Put an event into the scheduler with the next uid.
     * @param ts its time, in time steps.
     * @param context its context.
     * @param event the event (the scheduler holds this reference).
     * @return its uid.
     */
    uint32_t Insert(uint64_t ts, uint32_t context, EventImpl* event);

    /// Move the events other threads scheduled into the scheduler.
    void TakeEventsFromOtherThreads();

    /**
     * Take a pending event out of the scheduler (Remove and Withdraw).
     * @param id the event, pending in this simulator.
     * @return its object, still holding the scheduler's reference for the caller to drop.
     */
    EventImpl* TakeOut(const EventId& id);

    /// An event another thread scheduled, waiting for the simulation's thread.
    struct ForeignEvent
    {
        uint32_t context; //!< its context
        uint64_t delay;   //!< its delay, in time steps, from the clock when it is inserted
        EventImpl* event; //!< the event (one reference)
    };

    static LeanSimulatorImpl* s_running; //!< the LeanSimulatorImpl in Run, if one is

    Ptr<Scheduler> m_events;            //!< the pending events
    std::list<EventId> m_destroyEvents; //!< the events to run at Destroy
    bool m_stop;                        //!< whether Run is to return
    uint32_t m_uid;                     //!< the next event's uid
    uint32_t m_currentUid;              //!< the running (or last run) event's uid
    uint64_t m_currentTs;               //!< the clock, in time steps
    uint32_t m_currentContext;          //!< the running event's context
    uint64_t m_eventCount;              //!< events run
    int64_t m_unscheduledEvents;        //!< events in the scheduler
    std::thread::id m_mainThreadId;     //!< the thread that runs the simulation
    std::list<ForeignEvent> m_foreign;  //!< events other threads scheduled
    std::atomic<bool> m_foreignEmpty;   //!< whether m_foreign is empty
    std::mutex m_foreignMutex;          //!< guards m_foreign
};

inline void
LeanSimulatorImpl::ScheduleStepsWithContext(uint32_t context, uint64_t delay, EventImpl* event)
{
    LeanSimulatorImpl* running = s_running;
    if (running != nullptr)
    {
        running->Insert(running->m_currentTs + delay, context, event);
        return;
    }
    Simulator::ScheduleWithContext(context, TimeStep(delay), event);
}

inline void
LeanSimulatorImpl::ScheduleSteps(uint64_t delay, EventImpl* event)
{
    LeanSimulatorImpl* running = s_running;
    if (running != nullptr)
    {
        running->Insert(running->m_currentTs + delay, running->m_currentContext, event);
        return;
    }
    // ScheduleWithContext in the running context is what Schedule does, less the EventId.
    Simulator::ScheduleWithContext(Simulator::GetContext(), TimeStep(delay), event);
}

} // namespace ns3

#endif /* LEAN_SIMULATOR_IMPL_H */
