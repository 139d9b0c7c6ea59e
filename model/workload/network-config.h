/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NETWORK_CONFIG_H
#define NETWORK_CONFIG_H

#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The transport and switch settings of a training job's scale-out network: the RDMA MTU, the
 * queue pairs of a collective between two NICs, the congestion control and loss recovery of the
 * queue pairs, PFC, and the switch buffer with its ECN (RED) marking thresholds. These are the
 * values of a scenario's @c network section (see Scenario); whoever builds the fabric reads them
 * with the getters and applies them to the RDMA and switch objects.
 *
 * This class names the choices only: it depends on no RDMA or fabric class. The names that the
 * getters return are those the lower layers use: GetCongestionControlName() "none", "fixed" or
 * "dcqcn"; GetDcqcnProfileName() a DCQCN profile ("mlx5" or "sigcomm2015"); GetRecoveryName()
 * the name of a value of RdmaQueuePair's Recovery attribute ("GoBackN" or "SelectiveRepeat").
 *
 * The ECN thresholds follow RED as DCQCN switches use it: a queue of at most KminBytes is never
 * marked, one above KmaxBytes always, and in between with a probability rising linearly from 0
 * to Pmax. Check() requires KminBytes <= KmaxBytes <= BufferBytes, a buffer holding at least one
 * packet of Mtu bytes, and an Mtu that InfiniBand defines (256, 512, 1024, 2048 or 4096 bytes).
 *
 * The defaults describe a current RoCE fabric: 4096-byte MTU, 2 queue pairs per NIC pair,
 * DCQCN with the ConnectX (mlx5) parameters, go-back-N, PFC on (priority 3 lossless), a 32 MiB
 * switch buffer, and ECN thresholds of 100 KiB and 400 KiB with Pmax 0.2.
 */
class NetworkConfig : public Object
{
  public:
    /// The congestion control of the queue pairs.
    enum CongestionControlKind
    {
        NONE,  ///< None: a queue pair sends at its line rate.
        FIXED, ///< A fixed rate per queue pair.
        DCQCN  ///< DCQCN (Zhu et al., SIGCOMM 2015), with the parameters of DcqcnProfile.
    };

    /// The parameter set of DCQCN.
    enum DcqcnProfileKind
    {
        MLX5,       ///< The defaults of NVIDIA ConnectX NICs (mlx5 driver).
        SIGCOMM2015 ///< The values of the DCQCN paper (Zhu et al., SIGCOMM 2015).
    };

    /// How a queue pair recovers lost packets.
    enum RecoveryKind
    {
        GO_BACK_N,       ///< Resend from the lost packet on (RoCE NICs).
        SELECTIVE_REPEAT ///< Resend the lost packets only (as IRN).
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /** Create a configuration with the default attribute values. */
    NetworkConfig();
    ~NetworkConfig() override;

    /**
     * Check that the attributes are consistent with each other.
     * @return an empty string, or the first problem found, naming the scenario keys, such as
     * "kmin_bytes (500000) is above kmax_bytes (409600)".
     */
    std::string Check() const;

    /** @return the RDMA MTU: payload bytes per packet. */
    uint32_t GetMtu() const;
    /** @return the queue pairs between a pair of NICs in a collective. */
    uint32_t GetChannels() const;
    /** @return the congestion control. */
    CongestionControlKind GetCongestionControl() const;
    /** @return the congestion control's name: "none", "fixed" or "dcqcn". */
    std::string GetCongestionControlName() const;
    /** @return the DCQCN parameter set. */
    DcqcnProfileKind GetDcqcnProfile() const;
    /** @return the DCQCN parameter set's name: "mlx5" or "sigcomm2015". */
    std::string GetDcqcnProfileName() const;
    /** @return the loss recovery. */
    RecoveryKind GetRecovery() const;
    /**
     * @return the loss recovery as RdmaQueuePair's Recovery attribute names it: "GoBackN" or
     * "SelectiveRepeat".
     */
    std::string GetRecoveryName() const;
    /** @return true if PFC makes priority 3 lossless. */
    bool GetPfc() const;
    /** @return the buffer of a switch, in bytes. */
    uint32_t GetBufferBytes() const;
    /** @return the queue length below which no packet is ECN-marked, in bytes. */
    uint32_t GetKminBytes() const;
    /** @return the queue length above which every packet is ECN-marked, in bytes. */
    uint32_t GetKmaxBytes() const;
    /** @return the marking probability at KmaxBytes, in [0, 1]. */
    double GetPmax() const;

  protected:
    void DoInitialize() override;

  private:
    uint32_t m_mtu;                            //!< RDMA MTU, bytes.
    uint32_t m_channels;                       //!< Queue pairs per NIC pair.
    CongestionControlKind m_congestionControl; //!< Congestion control.
    DcqcnProfileKind m_dcqcnProfile;           //!< DCQCN parameter set.
    RecoveryKind m_recovery;                   //!< Loss recovery.
    bool m_pfc;                                //!< PFC on priority 3.
    uint32_t m_bufferBytes;                    //!< Switch buffer, bytes.
    uint32_t m_kminBytes;                      //!< ECN Kmin, bytes.
    uint32_t m_kmaxBytes;                      //!< ECN Kmax, bytes.
    double m_pmax;                             //!< ECN marking probability at Kmax.
};

} // namespace ns3

#endif /* NETWORK_CONFIG_H */
