/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GPU_SPEC_H
#define GPU_SPEC_H

#include "ns3/data-rate.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The figures of one GPU that the compute-time model and the scale-up (NVLink) links need: dense
 * BF16 peak throughput, the model FLOPs utilization a training run reaches on it, HBM bandwidth
 * and capacity, and NVLink bandwidth.
 *
 * Every field is an attribute. The time to execute a number of FLOPs is
 * FLOPs / (PeakFlops x Mfu) (see GetEffectiveFlops() and ComputeModel::GetDuration()).
 *
 * The presets take their figures from NVIDIA's public datasheets and whitepapers (SXM form
 * factors, dense BF16 Tensor Core throughput, i.e. half of the "with sparsity" figure):
 * - "a100": A100 SXM4 80GB (NVIDIA A100 Tensor Core GPU datasheet): 312 TFLOP/s BF16 dense
 *   (624 with sparsity), HBM2e 2,039 GB/s, 80 GB, NVLink 3 600 GB/s total (bidirectional),
 *   i.e. 300 GB/s per direction;
 * - "h100": H100 SXM5 80GB (NVIDIA H100 datasheet; Hopper architecture whitepaper, table
 *   "H100 SXM5": 989.4 TFLOP/s BF16 dense, 1,978.9 with sparsity): HBM3 3.35 TB/s, 80 GB, NVLink 4
 *   900 GB/s total, i.e. 450 GB/s per direction;
 * - "h200": H200 SXM 141GB (NVIDIA H200 datasheet): the compute of the H100 SXM (1,979 TFLOP/s
 *   BF16 with sparsity), HBM3e 4.8 TB/s, 141 GB, NVLink 900 GB/s total (450 per direction);
 * - "b200": B200 in a DGX/HGX B200 (NVIDIA DGX B200 datasheet: 72 PFLOP/s FP8 training and, for
 *   the HGX B200 baseboard, 36 PFLOP/s FP16/BF16 with sparsity for 8 GPUs): 2.25 PFLOP/s BF16
 *   dense per GPU, HBM3e 8 TB/s, 180 GB (1,440 GB for 8 GPUs), NVLink 5 1.8 TB/s total (900 GB/s
 *   per direction). These figures are less certain than the others: NVIDIA has published
 *   several (preliminary figures of 192 GB; a GB200 Grace-Blackwell GPU at a higher power limit is
 *   quoted at 2.5 PFLOP/s dense BF16), and the dense value is derived by halving the sparse one.
 *
 * Sizes and rates are decimal (1 GB = 10^9 bytes), as NVIDIA quotes them. ApplyPreset does not
 * change Mfu, which is a property of the workload and software rather than of the GPU.
 *
 * The default values are those of the "h100" preset, with Mfu 0.4.
 */
class GpuSpec : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /** Create a specification with the default (H100 SXM, Mfu 0.4) figures. */
    GpuSpec();
    ~GpuSpec() override;

    /**
     * Set Name, PeakFlops, MemoryBandwidth, MemoryCapacity and NvlinkBandwidth to those of a named
     * GPU; Mfu is left unchanged.
     * @param name a name from GetPresetNames().
     * @return an empty string, or "unknown preset 'X' (known: ...)" and nothing is changed.
     */
    std::string ApplyPreset(const std::string& name);

    /**
     * @return the names ApplyPreset accepts, in a fixed order.
     */
    static std::vector<std::string> GetPresetNames();

    /**
     * Check that the attributes describe a usable GPU.
     * @return an empty string, or a description of the first problem found, naming the attribute.
     */
    std::string Check() const;

    /** @return the name of the GPU. */
    std::string GetName() const;
    /** @return the dense BF16 peak throughput, in FLOP/s. */
    double GetPeakFlops() const;
    /** @return the model FLOPs utilization, in (0, 1]. */
    double GetMfu() const;
    /** @return the sustained throughput PeakFlops x Mfu, in FLOP/s. */
    double GetEffectiveFlops() const;
    /** @return the HBM bandwidth. */
    DataRate GetMemoryBandwidth() const;
    /** @return the HBM capacity, in bytes. */
    uint64_t GetMemoryCapacity() const;
    /** @return the NVLink bandwidth of one GPU in one direction. */
    DataRate GetNvlinkBandwidth() const;

  protected:
    void DoInitialize() override;

  private:
    std::string m_name;         //!< Name of the GPU.
    double m_peakFlops;         //!< Dense BF16 peak, FLOP/s.
    double m_mfu;               //!< Model FLOPs utilization.
    DataRate m_memoryBandwidth; //!< HBM bandwidth.
    uint64_t m_memoryCapacity;  //!< HBM capacity, bytes.
    DataRate m_nvlinkBandwidth; //!< NVLink bandwidth per GPU and direction.
};

} // namespace ns3

#endif /* GPU_SPEC_H */
