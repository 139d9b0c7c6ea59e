/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-watchdog.h"

#include "roce-net-device.h"
#include "roce-switch.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcWatchdog");

NS_OBJECT_ENSURE_REGISTERED(PfcWatchdog);

TypeId
PfcWatchdog::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcWatchdog")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<PfcWatchdog>()
            .AddAttribute("DetectionTime",
                          "How long a lossless egress queue must be paused continuously by the "
                          "peer's PFC to be in a storm (SONiC pfcwd detection_time: shipped "
                          "default 200 ms; its test plan uses 400 ms).",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&PfcWatchdog::m_detectionTime),
                          MakeTimeChecker(MicroSeconds(1), Seconds(100)))
            .AddAttribute("RestorationTime",
                          "A queue in a storm is restored once no pause of its priority has "
                          "arrived for this long (SONiC pfcwd restoration_time: shipped "
                          "default 200 ms).",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&PfcWatchdog::m_restorationTime),
                          MakeTimeChecker(MicroSeconds(1), Seconds(100)))
            .AddAttribute(
                "Action",
                "What a queue in a storm does (SONiC pfcwd action; Drop is its "
                "default): Drop (drop its queued and arriving frames, releasing their "
                "buffer, and ignore pauses) or Forward (ignore pauses and transmit).",
                EnumValue(PfcWatchdog::DROP),
                LLM_FABRIC_ENUM_ACCESSOR(PfcWatchdog::Action, &PfcWatchdog::m_action),
                MakeEnumChecker(PfcWatchdog::DROP, "Drop", PfcWatchdog::FORWARD, "Forward"))
            .AddTraceSource("StormState",
                            "An egress queue enters a storm state or is restored: port, "
                            "priority, the new state, the time.",
                            MakeTraceSourceAccessor(&PfcWatchdog::m_stormStateTrace),
                            "ns3::PfcWatchdog::StormStateTracedCallback");
    return tid;
}

PfcWatchdog::PfcWatchdog()
    : m_detectionTime(MilliSeconds(200)),
      m_restorationTime(MilliSeconds(200)),
      m_action(DROP),
      m_switch(nullptr),
      m_storms(0),
      m_restorations(0),
      m_framesDropped(0)
{
    NS_LOG_FUNCTION(this);
}

PfcWatchdog::~PfcWatchdog()
{
    NS_LOG_FUNCTION(this);
}

void
PfcWatchdog::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& q : m_queues)
    {
        q.timer.Cancel();
    }
    m_switch = nullptr;
    Object::DoDispose();
}

void
PfcWatchdog::Attach(RoceSwitch* sw)
{
    NS_LOG_FUNCTION(this << sw);
    NS_ABORT_MSG_IF(m_switch != nullptr, "PfcWatchdog: already watching a switch");
    m_switch = sw;
    m_queues.assign(sw->GetNPorts() * PRIORITIES, Queue());
    for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
    {
        sw->GetPort(port)->TraceConnectWithoutContext(
            "PauseState",
            MakeBoundCallback(&PfcWatchdog::PauseStateSink, Ptr<PfcWatchdog>(this), port));
    }
}

void
PfcWatchdog::PauseStateSink(Ptr<PfcWatchdog> wd, uint32_t port, uint8_t priority, bool paused)
{
    wd->PauseChanged(port, priority, paused);
}

void
PfcWatchdog::PauseChanged(uint32_t port, uint8_t priority, bool paused)
{
    if (m_switch == nullptr || !m_switch->GetMmu()->IsLossless(priority))
    {
        return;
    }
    Queue& q = m_queues[port * PRIORITIES + priority];
    if (q.state != OPERATIONAL)
    {
        return; // pauses are ignored in a storm (the port reports the pause it lifts)
    }
    q.timer.Cancel();
    if (paused)
    {
        q.timer = Simulator::Schedule(m_detectionTime, &PfcWatchdog::Detect, this, port, priority);
    }
}

void
PfcWatchdog::Detect(uint32_t port, uint8_t priority)
{
    Queue& q = m_queues[port * PRIORITIES + priority];
    Ptr<RoceNetDevice> device = m_switch->GetPort(port);
    NS_ASSERT_MSG(device->IsPaused(priority), "PfcWatchdog: detection of an unpaused queue");
    ++m_storms;
    q.state = m_action == DROP ? STORM_DROPPING : STORM_FORWARDING;
    q.stormStart = Simulator::Now();
    NS_LOG_INFO("storm on port " << port << " priority " << +priority << " at "
                                 << Simulator::Now().As(Time::US));
    m_stormStateTrace(port, priority, q.state, Simulator::Now());
    device->SetPauseIgnored(priority, true);
    if (q.state == STORM_DROPPING)
    {
        m_framesDropped += m_switch->DropEgressQueue(port, priority);
    }
    q.timer = Simulator::Schedule(m_restorationTime,
                                  &PfcWatchdog::CheckRestoration,
                                  this,
                                  port,
                                  priority);
}

void
PfcWatchdog::CheckRestoration(uint32_t port, uint8_t priority)
{
    Queue& q = m_queues[port * PRIORITIES + priority];
    Ptr<RoceNetDevice> device = m_switch->GetPort(port);
    Time quietSince = std::max(q.stormStart, device->GetLastPauseReceived(priority));
    Time due = quietSince + m_restorationTime;
    if (due > Simulator::Now())
    {
        q.timer = Simulator::Schedule(due - Simulator::Now(),
                                      &PfcWatchdog::CheckRestoration,
                                      this,
                                      port,
                                      priority);
        return;
    }
    ++m_restorations;
    q.state = OPERATIONAL;
    NS_LOG_INFO("restored port " << port << " priority " << +priority << " at "
                                 << Simulator::Now().As(Time::US));
    m_stormStateTrace(port, priority, OPERATIONAL, Simulator::Now());
    device->SetPauseIgnored(priority, false);
}

PfcWatchdog::State
PfcWatchdog::GetState(uint32_t port, uint8_t priority) const
{
    NS_ABORT_MSG_IF(port * PRIORITIES + priority >= m_queues.size() || priority >= PRIORITIES,
                    "PfcWatchdog: no port " << port << " priority " << +priority);
    return m_queues[port * PRIORITIES + priority].state;
}

uint64_t
PfcWatchdog::GetStormsDetected() const
{
    return m_storms;
}

uint64_t
PfcWatchdog::GetRestorations() const
{
    return m_restorations;
}

uint64_t
PfcWatchdog::GetFramesDropped() const
{
    return m_framesDropped;
}

Time
PfcWatchdog::GetDetectionTime() const
{
    return m_detectionTime;
}

Time
PfcWatchdog::GetRestorationTime() const
{
    return m_restorationTime;
}

} // namespace ns3
