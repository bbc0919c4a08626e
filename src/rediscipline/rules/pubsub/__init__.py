"""PUB: pub/sub and queues, one module each."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.pubsub.blocking_timeout import BlockingTimeout
from rediscipline.rules.pubsub.client_channels import ClientChannels
from rediscipline.rules.pubsub.output_buffer import OutputBufferNearLimit
from rediscipline.rules.pubsub.queue_growing import QueueGrowing
from rediscipline.rules.pubsub.stream_group_lag import StreamGroupLag
from rediscipline.rules.pubsub.subscription_count import SubscriptionCount

#: Every PUB rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (
    BlockingTimeout,  # PUB001
    SubscriptionCount,  # PUB002
    ClientChannels,  # PUB003
    OutputBufferNearLimit,  # PUB004
    QueueGrowing,  # PUB005
    StreamGroupLag,  # PUB006
)
