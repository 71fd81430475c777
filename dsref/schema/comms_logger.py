"""`comms_logger`: timing and bandwidth logging of DeepSpeed's collective communication calls."""

from __future__ import annotations

from ._base import Section, StrictSection
from ._meta import option


class CommsLoggerConfig(StrictSection):
    """Records latency, message size and bandwidth of the communication calls made through `deepspeed.comm`.

    The mere presence of this section turns logging on, whatever `enabled` says; leave the section out to
    switch it off. While logging, every communication call waits for the device to finish, which slows training.
    The summary is printed by `deepspeed.comm.log_summary()`.
    """

    ds_class = "deepspeed.comm.config.CommsLoggerConfig"

    enabled: bool = option(
        False,
        parsed_unused=True,
        ds_constant="deepspeed.comm.constants.COMMS_LOGGER_ENABLED_DEFAULT",
        description="Read but not consulted: DeepSpeed turns the logger on whenever the comms_logger section "
        "exists, so even false enables it. Remove the section to disable logging.",
    )
    prof_all: bool = option(
        True,
        ds_constant="deepspeed.comm.constants.COMMS_LOGGER_PROF_ALL_DEFAULT",
        description="Times every communication call; set to false to time only the operations in prof_ops (or "
        "calls made with prof=True).",
    )
    prof_ops: list = option(
        [],
        ds_constant="deepspeed.comm.constants.COMMS_LOGGER_PROF_OPS_DEFAULT",
        description="Names of the operations (or custom log names) to time when prof_all is false; the items are "
        "not type-checked.",
        example=["all_reduce", "all_gather_into_tensor"],
    )
    verbose: bool = option(
        False,
        ds_constant="deepspeed.comm.constants.COMMS_LOGGER_VERBOSE_DEFAULT",
        description="Prints a line for every timed call as it happens, besides collecting the summary.",
    )
    debug: bool = option(
        False,
        ds_constant="deepspeed.comm.constants.COMMS_LOGGER_DEBUG_DEFAULT",
        description="Adds the name of the calling function to each log entry, so calls of the same operation from "
        "different places are reported separately.",
    )


class CommsLoggerOptions(Section):
    """Top-level fields contributed by this module."""

    comms_logger: CommsLoggerConfig = option(
        None,
        since="0.7.0",
        default_note="Absent means no communication logging; the section's presence turns logging on.",
    )
