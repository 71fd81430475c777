"""The package of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

DSREF = '0.1.0.dev0'
DEEPSPEED = '0.19.8'

SHARDS = ('train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps', 'managed_gradient_accumulation', 'dataloader_drop_last', 'optimizer', 'gradient_clipping', 'zero_allow_untested_optimizer', 'zero_force_ds_cpu_optimizer', 'scheduler', 'communication_data_type', 'gradient_allreduce_op', 'prescale_gradients', 'gradient_predivide_factor', 'seq_parallel_communication_data_type', 'disable_allgather', 'sequence_parallel_size', 'data_parallel_size', 'use_data_before_expert_parallelism', 'sparse_gradients', 'fp16', 'bf16', 'torch_autocast', 'zero_optimization', 'allgather_size', 'activation_checkpointing', 'steps_per_print', 'wall_clock_breakdown', 'dump_state', 'memory_breakdown', 'log_level', 'disable_python_gc', 'vocabulary_size', 'graph_harvesting', 'tensorboard', 'wandb', 'csv_monitor', 'comet', 'comms_logger', 'flops_profiler', 'timers', 'autotuning', 'aio', 'checkpoint', 'datastates_ckpt', 'data_types', 'data_efficiency', 'pipeline', 'compile', 'tensor_parallel', 'expert_parallel', 'hybrid_engine', 'weight_quantization', 'amp', 'curriculum_learning', 'compression_training', 'sparse_attention', 'elasticity', 'nebula', 'progressive_layer_drop', 'eigenvalue', 'quantize_training')
LANGUAGES = ('en', 'zh')
