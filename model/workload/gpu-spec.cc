/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gpu-spec.h"

#include "preset-table.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GpuSpec");

NS_OBJECT_ENSURE_REGISTERED(GpuSpec);

namespace
{

/// Bits per second in one (decimal) gigabyte per second.
constexpr uint64_t BPS_PER_GBPS = 8000000000ULL;
/// Bytes in one (decimal) gigabyte.
constexpr uint64_t BYTES_PER_GB = 1000000000ULL;

/**
 * The figures of a named GPU (see the class documentation for their sources).
 */
struct Preset
{
    const char* name;    //!< Name accepted by ApplyPreset.
    double peakFlops;    //!< PeakFlops, FLOP/s (dense BF16).
    uint64_t memoryGBps; //!< MemoryBandwidth, GB/s.
    uint64_t memoryGB;   //!< MemoryCapacity, GB.
    uint64_t nvlinkGBps; //!< NvlinkBandwidth per direction, GB/s.
};

/// The presets, from NVIDIA's datasheets and whitepapers.
const Preset PRESETS[] = {
    // A100 SXM4 80GB: 312 TFLOP/s BF16 dense, 2,039 GB/s, NVLink 600 GB/s bidirectional.
    {"a100", 312e12, 2039, 80, 300},
    // H100 SXM5 80GB: 989.4 TFLOP/s BF16 dense, 3.35 TB/s, NVLink 900 GB/s bidirectional.
    {"h100", 989.4e12, 3350, 80, 450},
    // H200 SXM 141GB: H100 SXM compute, 4.8 TB/s, NVLink 900 GB/s bidirectional.
    {"h200", 989.4e12, 4800, 141, 450},
    // B200 (DGX/HGX B200): 2.25 PFLOP/s BF16 dense (36 PFLOP/s sparse for 8 GPUs, halved), 8 TB/s,
    // 180 GB, NVLink 5 1.8 TB/s bidirectional. Less certain, see the class documentation.
    {"b200", 2.25e15, 8000, 180, 900},
};

/// Index of the default preset ("h100") in PRESETS.
constexpr size_t DEFAULT_PRESET = 1;

} // namespace

TypeId
GpuSpec::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GpuSpec")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<GpuSpec>()
            .AddAttribute("Name",
                          "Name of the GPU (informative).",
                          StringValue(PRESETS[DEFAULT_PRESET].name),
                          MakeStringAccessor(&GpuSpec::m_name),
                          MakeStringChecker())
            .AddAttribute("PeakFlops",
                          "Dense BF16 Tensor Core peak throughput, in FLOP/s; must be positive.",
                          DoubleValue(PRESETS[DEFAULT_PRESET].peakFlops),
                          MakeDoubleAccessor(&GpuSpec::m_peakFlops),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("Mfu",
                          "Model FLOPs utilization: the fraction of PeakFlops a training run "
                          "sustains, in (0, 1].",
                          DoubleValue(0.4),
                          MakeDoubleAccessor(&GpuSpec::m_mfu),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute(
                "MemoryBandwidth",
                "HBM bandwidth.",
                DataRateValue(DataRate(PRESETS[DEFAULT_PRESET].memoryGBps * BPS_PER_GBPS)),
                MakeDataRateAccessor(&GpuSpec::m_memoryBandwidth),
                MakeDataRateChecker())
            .AddAttribute("MemoryCapacity",
                          "HBM capacity, in bytes.",
                          UintegerValue(PRESETS[DEFAULT_PRESET].memoryGB * BYTES_PER_GB),
                          MakeUintegerAccessor(&GpuSpec::m_memoryCapacity),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute(
                "NvlinkBandwidth",
                "NVLink bandwidth of one GPU in one direction (half of the "
                "bidirectional figure NVIDIA quotes).",
                DataRateValue(DataRate(PRESETS[DEFAULT_PRESET].nvlinkGBps * BPS_PER_GBPS)),
                MakeDataRateAccessor(&GpuSpec::m_nvlinkBandwidth),
                MakeDataRateChecker());
    return tid;
}

GpuSpec::GpuSpec()
    : m_name(PRESETS[DEFAULT_PRESET].name),
      m_peakFlops(PRESETS[DEFAULT_PRESET].peakFlops),
      m_mfu(0.4),
      m_memoryBandwidth(PRESETS[DEFAULT_PRESET].memoryGBps * BPS_PER_GBPS),
      m_memoryCapacity(PRESETS[DEFAULT_PRESET].memoryGB * BYTES_PER_GB),
      m_nvlinkBandwidth(PRESETS[DEFAULT_PRESET].nvlinkGBps * BPS_PER_GBPS)
{
    NS_LOG_FUNCTION(this);
}

GpuSpec::~GpuSpec()
{
    NS_LOG_FUNCTION(this);
}

void
GpuSpec::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    std::string problem = Check();
    NS_ABORT_MSG_IF(!problem.empty(), "GpuSpec: " << problem);
    Object::DoInitialize();
}

std::vector<std::string>
GpuSpec::GetPresetNames()
{
    return PresetTable::GetNames(PRESETS);
}

std::string
GpuSpec::ApplyPreset(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    std::string problem;
    const Preset* preset = PresetTable::Find(PRESETS, name, problem);
    if (preset == nullptr)
    {
        return problem;
    }
    m_name = preset->name;
    m_peakFlops = preset->peakFlops;
    m_memoryBandwidth = DataRate(preset->memoryGBps * BPS_PER_GBPS);
    m_memoryCapacity = preset->memoryGB * BYTES_PER_GB;
    m_nvlinkBandwidth = DataRate(preset->nvlinkGBps * BPS_PER_GBPS);
    return "";
}

std::string
GpuSpec::Check() const
{
    std::ostringstream problem;
    if (!(m_peakFlops > 0.0))
    {
        problem << "PeakFlops (" << m_peakFlops << ") must be positive";
    }
    else if (!(m_mfu > 0.0 && m_mfu <= 1.0))
    {
        problem << "Mfu (" << m_mfu << ") must be in (0, 1]";
    }
    else if (m_memoryBandwidth.GetBitRate() == 0)
    {
        problem << "MemoryBandwidth (" << m_memoryBandwidth << ") must be positive";
    }
    else if (m_memoryCapacity == 0)
    {
        problem << "MemoryCapacity (0) must be positive";
    }
    else if (m_nvlinkBandwidth.GetBitRate() == 0)
    {
        problem << "NvlinkBandwidth (" << m_nvlinkBandwidth << ") must be positive";
    }
    return problem.str();
}

std::string
GpuSpec::GetName() const
{
    return m_name;
}

double
GpuSpec::GetPeakFlops() const
{
    return m_peakFlops;
}

double
GpuSpec::GetMfu() const
{
    return m_mfu;
}

double
GpuSpec::GetEffectiveFlops() const
{
    return m_peakFlops * m_mfu;
}

DataRate
GpuSpec::GetMemoryBandwidth() const
{
    return m_memoryBandwidth;
}

uint64_t
GpuSpec::GetMemoryCapacity() const
{
    return m_memoryCapacity;
}

DataRate
GpuSpec::GetNvlinkBandwidth() const
{
    return m_nvlinkBandwidth;
}

} // namespace ns3
