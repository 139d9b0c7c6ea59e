/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-monitor.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricMonitor");

namespace
{

/// Wall time between two flushes of the files while the simulation runs.
constexpr std::chrono::seconds FLUSH_PERIOD{1};

/// The drop reasons in the column order of the counters file.
constexpr std::array<RoceSwitch::DropReason, RoceSwitch::DROP_REASONS> DROP_COLUMNS{
    RoceSwitch::DROP_LOSSY_LIMIT,
    RoceSwitch::DROP_HEADROOM_FULL,
    RoceSwitch::DROP_BUFFER_FULL,
    RoceSwitch::DROP_NO_ROUTE,
    RoceSwitch::DROP_NOT_IPV4,
};

} // namespace

FabricMonitor::FabricMonitor()
    : m_trackMaxQueue(false),
      m_maxQueueBytes(0),
      m_finished(false),
      m_lastFlush(std::chrono::steady_clock::now())
{
    NS_LOG_FUNCTION(this);
}

FabricMonitor::~FabricMonitor()
{
    NS_LOG_FUNCTION(this);
    m_sampleEvent.Cancel();
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        Ptr<RoceNetDevice> device = m_ports[i].device;
        device->TraceDisconnectWithoutContext(
            "PauseState",
            MakeCallback(&FabricMonitor::PauseStateChanged, this).Bind(i));
        if (m_trackMaxQueue)
        {
            device->RemoveQueueHighWaterMark(m_ports[i].highWaterMark);
        }
    }
}

void
FabricMonitor::AddPort(Ptr<RoceNetDevice> port, const std::string& name)
{
    NS_LOG_FUNCTION(this << port << name);
    NS_ABORT_MSG_IF(!port, "FabricMonitor: null port \"" << name << "\"");
    NS_ABORT_MSG_IF(name.find_first_of(",\n\r") != std::string::npos,
                    "FabricMonitor: port name \"" << name << "\" contains a comma or line break");
    NS_ABORT_MSG_IF(m_portIndex.count(PeekPointer(port)) != 0,
                    "FabricMonitor: port \"" << name << "\" is already monitored as \""
                                             << m_ports[m_portIndex[PeekPointer(port)]].name
                                             << "\"");
    auto index = static_cast<uint32_t>(m_ports.size());
    PortState state;
    state.device = port;
    state.name = name;
    if (m_trackMaxQueue)
    {
        state.highWaterMark = port->AddQueueHighWaterMark();
    }
    m_ports.push_back(state);
    m_portIndex[PeekPointer(port)] = index;
    port->TraceConnectWithoutContext(
        "PauseState",
        MakeCallback(&FabricMonitor::PauseStateChanged, this).Bind(index));
}

void
FabricMonitor::AddSwitch(Ptr<RoceSwitch> sw, const std::string& name)
{
    NS_LOG_FUNCTION(this << sw << name);
    NS_ABORT_MSG_IF(!sw, "FabricMonitor: null switch \"" << name << "\"");
    NS_ABORT_MSG_IF(std::find(m_switches.begin(), m_switches.end(), sw) != m_switches.end(),
                    "FabricMonitor: switch \"" << name << "\" is already monitored");
    m_switches.push_back(sw);
    for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
    {
        AddPort(sw->GetPort(i), name + "/" + std::to_string(i));
        m_ports.back().sw = sw;
        m_ports.back().switchPort = i;
    }
}

bool
FabricMonitor::OpenCsv(std::ofstream& file, const std::string& path, const char* header)
{
    file.open(path, std::ios::out | std::ios::trunc);
    if (!file.is_open())
    {
        m_lastError = path + ": " + std::strerror(errno);
        NS_LOG_ERROR("FabricMonitor: cannot open " << m_lastError);
        return false;
    }
    file << header << '\n';
    return true;
}

bool
FabricMonitor::EnableQueueSampling(const std::string& csvPath, Time interval)
{
    NS_LOG_FUNCTION(this << csvPath << interval);
    NS_ABORT_MSG_IF(!interval.IsStrictlyPositive(),
                    "FabricMonitor: sampling interval " << interval << " is not positive");
    NS_ABORT_MSG_IF(m_queueFile.is_open(), "FabricMonitor: queue sampling is already enabled");
    NS_ABORT_MSG_IF(m_finished, "FabricMonitor: EnableQueueSampling after Finish");
    if (!OpenCsv(m_queueFile, csvPath, "time_ns,port,priority,queue_bytes"))
    {
        return false;
    }
    m_sampleInterval = interval;
    m_sampleEvent = Simulator::ScheduleNow(&FabricMonitor::Sample, this);
    return true;
}

bool
FabricMonitor::EnablePauseIntervals(const std::string& csvPath)
{
    NS_LOG_FUNCTION(this << csvPath);
    NS_ABORT_MSG_IF(m_pauseFile.is_open(), "FabricMonitor: pause intervals are already enabled");
    NS_ABORT_MSG_IF(m_finished, "FabricMonitor: EnablePauseIntervals after Finish");
    return OpenCsv(m_pauseFile, csvPath, "port,priority,start_ns,end_ns");
}

void
FabricMonitor::EnableMaxQueueTracking()
{
    NS_LOG_FUNCTION(this);
    if (m_trackMaxQueue)
    {
        return;
    }
    m_trackMaxQueue = true;
    for (auto& port : m_ports)
    {
        port.highWaterMark = port.device->AddQueueHighWaterMark();
    }
}

void
FabricMonitor::PauseStateChanged(uint32_t index, uint8_t priority, bool paused)
{
    PortState& port = m_ports[index];
    if (paused)
    {
        port.pauseOpen[priority] = true;
        port.pauseStart[priority] = Simulator::Now();
        return;
    }
    if (!port.pauseOpen[priority])
    {
        return; // began before the port was added
    }
    port.pauseOpen[priority] = false;
    if (!m_finished && m_pauseFile.is_open())
    {
        WritePauseRow(port, priority, Simulator::Now());
        MaybeFlush();
    }
}

void
FabricMonitor::WritePauseRow(const PortState& port, uint8_t priority, Time end)
{
    m_pauseFile << port.name << ',' << +priority << ','
                << port.pauseStart[priority].GetNanoSeconds() << ',' << end.GetNanoSeconds()
                << '\n';
}

void
FabricMonitor::Sample()
{
    int64_t nowNs = Simulator::Now().GetNanoSeconds();
    for (auto& port : m_ports)
    {
        for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
        {
            uint32_t bytes = port.device->GetQueueBytes(p);
            if (bytes != 0 || bytes != port.lastSample[p])
            {
                m_queueFile << nowNs << ',' << port.name << ',' << +p << ',' << bytes << '\n';
                port.lastSample[p] = bytes;
                m_maxQueueBytes = std::max(m_maxQueueBytes, bytes);
            }
        }
    }
    MaybeFlush();
    // Keep sampling while anything else may still happen.
    if (!Simulator::IsFinished())
    {
        m_sampleEvent = Simulator::Schedule(m_sampleInterval, &FabricMonitor::Sample, this);
    }
}

void
FabricMonitor::MaybeFlush()
{
    auto now = std::chrono::steady_clock::now();
    if (now - m_lastFlush < FLUSH_PERIOD)
    {
        return;
    }
    m_lastFlush = now;
    if (m_queueFile.is_open())
    {
        m_queueFile.flush();
    }
    if (m_pauseFile.is_open())
    {
        m_pauseFile.flush();
    }
}

void
FabricMonitor::Finish()
{
    NS_LOG_FUNCTION(this);
    if (m_finished)
    {
        return;
    }
    m_finished = true;
    m_finishTime = Simulator::Now();
    m_sampleEvent.Cancel();
    for (const auto& port : m_ports)
    {
        if (m_trackMaxQueue)
        {
            m_maxQueueBytes =
                std::max(m_maxQueueBytes, port.device->GetQueueHighWaterMark(port.highWaterMark));
        }
        for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
        {
            if (port.pauseOpen[p] && m_pauseFile.is_open())
            {
                WritePauseRow(port, p, m_finishTime);
            }
        }
    }
    for (auto* file : {&m_queueFile, &m_pauseFile})
    {
        if (file->is_open())
        {
            file->close();
            if (file->fail())
            {
                NS_LOG_ERROR("FabricMonitor: writing a CSV file failed");
            }
        }
    }
}

Time
FabricMonitor::PauseHorizon() const
{
    return m_finished ? m_finishTime : Simulator::Now();
}

Time
FabricMonitor::PausedTime(const PortState& port, uint8_t priority) const
{
    Time paused = port.device->GetCounters(priority).pausedTime;
    if (port.pauseOpen[priority])
    {
        paused += std::max(Time(0), PauseHorizon() - port.pauseStart[priority]);
    }
    return paused;
}

bool
FabricMonitor::WriteCounters(const std::string& csvPath) const
{
    NS_LOG_FUNCTION(this << csvPath);
    std::ofstream file(csvPath, std::ios::out | std::ios::trunc);
    if (!file.is_open())
    {
        m_lastError = csvPath + ": " + std::strerror(errno);
        NS_LOG_ERROR("FabricMonitor: cannot open " << m_lastError);
        return false;
    }
    file << "port,priority,tx_frames,tx_bytes,rx_frames,rx_bytes,pauses_sent,resumes_sent,"
            "pauses_received,resumes_received,paused_ns,ecn_marks,drops_lossy_limit,"
            "drops_headroom_full,drops_buffer_full,drops_no_route,drops_not_ipv4\n";
    for (const auto& port : m_ports)
    {
        for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
        {
            const RoceNetDevice::Counters& c = port.device->GetCounters(p);
            Time paused = PausedTime(port, p);
            uint64_t ecn = 0;
            std::array<uint64_t, RoceSwitch::DROP_REASONS> drops{};
            uint64_t anyDrop = 0;
            if (port.sw)
            {
                ecn = port.sw->GetEcnMarks(port.switchPort, p);
                for (uint32_t r = 0; r < DROP_COLUMNS.size(); ++r)
                {
                    drops[r] = port.sw->GetDrops(port.switchPort, p, DROP_COLUMNS[r]);
                    anyDrop |= drops[r];
                }
            }
            if (c.txFrames == 0 && c.rxFrames == 0 && c.pausesSent == 0 && c.resumesSent == 0 &&
                c.pausesReceived == 0 && c.resumesReceived == 0 && paused.IsZero() && ecn == 0 &&
                anyDrop == 0)
            {
                continue;
            }
            file << port.name << ',' << +p << ',' << c.txFrames << ',' << c.txBytes << ','
                 << c.rxFrames << ',' << c.rxBytes << ',' << c.pausesSent << ',' << c.resumesSent
                 << ',' << c.pausesReceived << ',' << c.resumesReceived << ','
                 << paused.GetNanoSeconds() << ',' << ecn;
            for (uint64_t d : drops)
            {
                file << ',' << d;
            }
            file << '\n';
        }
    }
    file.close();
    if (file.fail())
    {
        m_lastError = csvPath + ": write error";
        NS_LOG_ERROR("FabricMonitor: cannot write " << csvPath);
        return false;
    }
    return true;
}

uint32_t
FabricMonitor::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

const std::string&
FabricMonitor::GetPortName(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(), "FabricMonitor: no port " << i);
    return m_ports[i].name;
}

uint64_t
FabricMonitor::GetTotalPauseFramesSent() const
{
    uint64_t total = 0;
    for (const auto& port : m_ports)
    {
        for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
        {
            total += port.device->GetCounters(p).pausesSent;
        }
    }
    return total;
}

uint64_t
FabricMonitor::GetTotalDrops() const
{
    uint64_t total = 0;
    for (const auto& sw : m_switches)
    {
        total += sw->GetTotalDrops();
    }
    return total;
}

uint64_t
FabricMonitor::GetTotalEcnMarks() const
{
    uint64_t total = 0;
    for (const auto& port : m_ports)
    {
        if (!port.sw)
        {
            continue;
        }
        for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
        {
            total += port.sw->GetEcnMarks(port.switchPort, p);
        }
    }
    return total;
}

uint32_t
FabricMonitor::GetMaxQueueBytes() const
{
    uint32_t max = m_maxQueueBytes;
    if (m_trackMaxQueue && !m_finished)
    {
        // After Finish, m_maxQueueBytes holds the marks as they were then.
        for (const auto& port : m_ports)
        {
            max = std::max(max, port.device->GetQueueHighWaterMark(port.highWaterMark));
        }
    }
    return max;
}

Time
FabricMonitor::GetTotalPausedTime() const
{
    Time total(0);
    for (const auto& port : m_ports)
    {
        for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
        {
            total += PausedTime(port, p);
        }
    }
    return total;
}

const std::string&
FabricMonitor::GetLastError() const
{
    return m_lastError;
}

} // namespace ns3
