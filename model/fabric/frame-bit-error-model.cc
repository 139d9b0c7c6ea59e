/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "frame-bit-error-model.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/packet.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FrameBitErrorModel");

NS_OBJECT_ENSURE_REGISTERED(FrameBitErrorModel);

TypeId
FrameBitErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FrameBitErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("LlmFabric")
            .AddConstructor<FrameBitErrorModel>()
            .AddAttribute("BitErrorRate",
                          "Probability that a bit is received wrong, bits independent (IEEE "
                          "802.3 PHYs target 1e-12 or better; a failing optic or cable runs "
                          "decades higher). 0: no loss.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&FrameBitErrorModel::m_ber),
                          MakeDoubleChecker<double>(0.0, 1.0));
    return tid;
}

FrameBitErrorModel::FrameBitErrorModel()
    : m_ber(0.0),
      m_uniform(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

double
FrameBitErrorModel::GetFrameErrorProbability(uint32_t frameBytes) const
{
    if (m_ber >= 1.0)
    {
        return 1.0;
    }
    double bits = 8.0 * (static_cast<double>(frameBytes) + FCS_BYTES);
    return -std::expm1(bits * std::log1p(-m_ber));
}

uint64_t
FrameBitErrorModel::GetFramesSeen() const
{
    return m_seen;
}

uint64_t
FrameBitErrorModel::GetFramesLost() const
{
    return m_lost;
}

int64_t
FrameBitErrorModel::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

bool
FrameBitErrorModel::DoCorrupt(Ptr<Packet> p)
{
    ++m_seen;
    if (m_ber <= 0.0)
    {
        return false;
    }
    bool lost = m_uniform->GetValue() < GetFrameErrorProbability(p->GetSize());
    if (lost)
    {
        ++m_lost;
    }
    return lost;
}

void
FrameBitErrorModel::DoReset()
{
    m_seen = 0;
    m_lost = 0;
}

} // namespace ns3
