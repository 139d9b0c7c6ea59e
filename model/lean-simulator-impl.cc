/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lean-simulator-impl.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeanSimulatorImpl");

NS_OBJECT_ENSURE_REGISTERED(LeanSimulatorImpl);

namespace
{
/**
 * Schedule Simulator::Stop after a delay, returning what this ns-3's SimulatorImpl::Stop(const
 * Time&) returns (a template, so that the branch for the other ns-3 is not compiled).
 * @tparam R that return type.
 * @param delay the delay.
 * @return the event's id, or nothing.
 */
template <typename R>
R
ScheduleStop(const Time& delay)
{
    if constexpr (std::is_void_v<R>)
    {
        Simulator::Schedule(delay, &Simulator::Stop);
    }
    else
    {
        return Simulator::Schedule(delay, &Simulator::Stop);
    }
}
} // namespace

LeanSimulatorImpl* LeanSimulatorImpl::s_running = nullptr;

TypeId
LeanSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LeanSimulatorImpl")
                            .SetParent<SimulatorImpl>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<LeanSimulatorImpl>();
    return tid;
}

LeanSimulatorImpl::LeanSimulatorImpl()
    : m_stop(false),
      m_uid(EventId::VALID),
      m_currentUid(EventId::INVALID),
      m_currentTs(0),
      m_currentContext(Simulator::NO_CONTEXT),
      m_eventCount(0),
      m_unscheduledEvents(0),
      m_mainThreadId(std::this_thread::get_id()),
      m_foreignEmpty(true)
{
    NS_LOG_FUNCTION(this);
}

LeanSimulatorImpl::~LeanSimulatorImpl()
{
    NS_LOG_FUNCTION(this);
}

void
LeanSimulatorImpl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    TakeEventsFromOtherThreads();
    // Through RemoveNext, as ns-3's simulators empty their scheduler.
    while (m_events && !m_events->IsEmpty())
    {
        Scheduler::Event next = m_events->RemoveNext();
        next.impl->Unref();
    }
    m_events = nullptr;
    SimulatorImpl::DoDispose();
}

void
LeanSimulatorImpl::Destroy()
{
    NS_LOG_FUNCTION(this);
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> event = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        if (!event->IsCancelled())
        {
            event->Invoke();
        }
    }
}

void
LeanSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    NS_LOG_FUNCTION(this << schedulerFactory);
    Ptr<Scheduler> scheduler = schedulerFactory.Create<Scheduler>();
    if (m_events)
    {
        while (!m_events->IsEmpty())
        {
            scheduler->Insert(m_events->RemoveNext());
        }
    }
    m_events = scheduler;
}

uint32_t
LeanSimulatorImpl::GetSystemId() const
{
    return 0;
}

bool
LeanSimulatorImpl::IsFinished() const
{
    return m_events->IsEmpty() || m_stop;
}

uint32_t
LeanSimulatorImpl::Insert(uint64_t ts, uint32_t context, EventImpl* event)
{
    Scheduler::Event ev;
    ev.impl = event;
    ev.key.m_ts = ts;
    ev.key.m_context = context;
    ev.key.m_uid = m_uid;
    ++m_uid;
    ++m_unscheduledEvents;
    m_events->Insert(ev);
    return ev.key.m_uid;
}

void
LeanSimulatorImpl::TakeEventsFromOtherThreads()
{
    if (m_foreignEmpty.load(std::memory_order_acquire))
    {
        return;
    }
    std::list<ForeignEvent> taken;
    {
        std::lock_guard<std::mutex> lock(m_foreignMutex);
        taken.swap(m_foreign);
        m_foreignEmpty.store(true, std::memory_order_release);
    }
    for (const ForeignEvent& e : taken)
    {
        Insert(m_currentTs + e.delay, e.context, e.event);
    }
}

void
LeanSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    m_mainThreadId = std::this_thread::get_id();
    TakeEventsFromOtherThreads();
    m_stop = false;
    Scheduler* events = PeekPointer(m_events);

    // ScheduleSteps and ScheduleStepsWithContext insert here directly until Run returns (or
    // an event throws).
    struct Running
    {
        explicit Running(LeanSimulatorImpl* impl)
        {
            s_running = impl;
        }

        ~Running()
        {
            s_running = nullptr;
        }
    } running(this);

    while (!m_stop && !events->IsEmpty())
    {
        // What DefaultSimulatorImpl::ProcessOneEvent does, but for the EventId it builds for
        // PreEventHook and its log test.
        Scheduler::Event next = events->RemoveNext();
        NS_ASSERT(next.key.m_ts >= m_currentTs);
        --m_unscheduledEvents;
        ++m_eventCount;
        m_currentTs = next.key.m_ts;
        m_currentContext = next.key.m_context;
        m_currentUid = next.key.m_uid;
        next.impl->Invoke();
        next.impl->Unref();
        TakeEventsFromOtherThreads();
        // An event may have replaced the scheduler (Simulator::SetScheduler).
        events = PeekPointer(m_events);
    }
    NS_ASSERT(!m_events->IsEmpty() || m_unscheduledEvents == 0);
}

void
LeanSimulatorImpl::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stop = true;
}

LeanSimulatorImpl::StopAfterResult
LeanSimulatorImpl::Stop(const Time& delay)
{
    NS_LOG_FUNCTION(this << delay.GetTimeStep());
    return ScheduleStop<StopAfterResult>(delay);
}

EventId
LeanSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThreadId == std::this_thread::get_id(),
                  "Simulator::Schedule Thread-unsafe invocation!");
    NS_ASSERT_MSG(delay.IsPositive(), "LeanSimulatorImpl::Schedule(): Negative delay");
    uint64_t ts = m_currentTs + static_cast<uint64_t>(delay.GetTimeStep());
    uint32_t uid = Insert(ts, m_currentContext, event);
    return EventId(event, ts, m_currentContext, uid);
}

void
LeanSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    if (m_mainThreadId == std::this_thread::get_id())
    {
        Insert(m_currentTs + static_cast<uint64_t>(delay.GetTimeStep()), context, event);
        return;
    }
    // Another thread: the simulation's inserts it before its next event, at this delay from
    // its clock then.
    std::lock_guard<std::mutex> lock(m_foreignMutex);
    m_foreign.push_back(ForeignEvent{context, static_cast<uint64_t>(delay.GetTimeStep()), event});
    m_foreignEmpty.store(false, std::memory_order_release);
}

EventId
LeanSimulatorImpl::ScheduleNow(EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThreadId == std::this_thread::get_id(),
                  "Simulator::ScheduleNow Thread-unsafe invocation!");
    uint32_t uid = Insert(m_currentTs, m_currentContext, event);
    return EventId(event, m_currentTs, m_currentContext, uid);
}

EventId
LeanSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThreadId == std::this_thread::get_id(),
                  "Simulator::ScheduleDestroy Thread-unsafe invocation!");
    // As DefaultSimulatorImpl: the DESTROY uid marks the event, and a uid is still used up.
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, 0xffffffff, EventId::DESTROY);
    m_destroyEvents.push_back(id);
    ++m_uid;
    return id;
}

Time
LeanSimulatorImpl::Now() const
{
    return TimeStep(m_currentTs);
}

Time
LeanSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    if (IsExpired(id))
    {
        return TimeStep(0);
    }
    return TimeStep(id.GetTs() - m_currentTs);
}

void
LeanSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == EventId::DESTROY)
    {
        for (auto i = m_destroyEvents.begin(); i != m_destroyEvents.end(); ++i)
        {
            if (*i == id)
            {
                m_destroyEvents.erase(i);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    EventImpl* impl = TakeOut(id);
    impl->Cancel();
    impl->Unref(); // the scheduler's reference
}

bool
LeanSimulatorImpl::Withdraw(const EventId& id)
{
    LeanSimulatorImpl* running = s_running;
    if (running == nullptr || id.GetUid() == EventId::DESTROY || running->IsExpired(id))
    {
        return false;
    }
    running->TakeOut(id)->Unref(); // the scheduler's reference
    return true;
}

EventImpl*
LeanSimulatorImpl::TakeOut(const EventId& id)
{
    Scheduler::Event event;
    event.impl = id.PeekEventImpl();
    event.key.m_ts = id.GetTs();
    event.key.m_context = id.GetContext();
    event.key.m_uid = id.GetUid();
    m_events->Remove(event);
    --m_unscheduledEvents;
    return event.impl;
}

void
LeanSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
LeanSimulatorImpl::IsExpired(const EventId& id) const
{
    if (id.GetUid() == EventId::DESTROY)
    {
        if (id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled())
        {
            return true;
        }
        for (const EventId& pending : m_destroyEvents)
        {
            if (pending == id)
            {
                return false;
            }
        }
        return true;
    }
    return id.PeekEventImpl() == nullptr || id.GetTs() < m_currentTs ||
           (id.GetTs() == m_currentTs && id.GetUid() <= m_currentUid) ||
           id.PeekEventImpl()->IsCancelled();
}

Time
LeanSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(0x7fffffffffffffffLL);
}

uint32_t
LeanSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
LeanSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

} // namespace ns3
