/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FRAME_BIT_ERROR_MODEL_H
#define FRAME_BIT_ERROR_MODEL_H

#include "ns3/error-model.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Independent bit errors at a bit error rate, judged per Ethernet frame: a receiver
 * discards a frame whose FCS check fails, which it does if any of its bits is wrong.
 *
 * A frame of B bytes (Ethernet header to payload end, as RoceNetDevice carries it) is checked
 * over B + 4 bytes (the FCS covers itself too), so it is lost with probability
 * 1 - (1 - BitErrorRate)^(8 (B + 4)), computed as -expm1(n log1p(-BER)) so that rates down to
 * 1e-15 keep their precision. The preamble and the inter-frame gap are not covered by the FCS
 * and do not count. The draw is one uniform variable per frame, from a stream that
 * AssignStreams fixes. Frames seen and frames lost are counted.
 *
 * Set on a RoceNetDevice as its ReceiveErrorModel (a fault injector does so on both ends of a
 * link for a per-link BER).
 */
class FrameBitErrorModel : public ErrorModel
{
  public:
    /// Bytes of the frame check sequence, covered by the check.
    static constexpr uint32_t FCS_BYTES = 4;

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    FrameBitErrorModel();

    /**
     * The probability that a frame of a given size is lost.
     * @param frameBytes the frame size without FCS.
     * @return 1 - (1 - BitErrorRate)^(8 (frameBytes + 4)).
     */
    double GetFrameErrorProbability(uint32_t frameBytes) const;

    /// @return frames judged.
    uint64_t GetFramesSeen() const;

    /// @return frames lost.
    uint64_t GetFramesLost() const;

    /**
     * Fix the random stream.
     * @param stream the stream index.
     * @return 1, the number of streams used.
     */
    int64_t AssignStreams(int64_t stream);

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    double m_ber;                         //!< bit error rate
    Ptr<UniformRandomVariable> m_uniform; //!< one draw per frame
    uint64_t m_seen{0};                   //!< frames judged
    uint64_t m_lost{0};                   //!< frames lost
};

} // namespace ns3

#endif /* FRAME_BIT_ERROR_MODEL_H */
