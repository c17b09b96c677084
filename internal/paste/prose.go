package paste

import (
	"fmt"
	"strings"
)

// What people write about a run rather than what it prints: "the job hangs
// at all_reduce", a run stopped with Ctrl-C in a collective, "the output is
// gibberish", "-nan instead of 10 is received". Each reader
// keeps the first line that says it, and needs the GPU or collective it
// happens in on the same line (or, for Ctrl-C, somewhere in the paste), so
// that a hang of something else is not read as one.

// stuckAtZero is a run said in Chinese to sit at 0 ("一致卡在0",
// shibing624/MedicalGPT#330): a hang, and one before the first step.
const stuckAtZero = `卡在了?\s?0(?:\s?%|步|/|\s|，|,|$)`

var (
	// A hang said in words: the words of one (hangs, stuck, freezes,
	// deadlock), and the other ways threads say it: "does not progress",
	// "makes no progress", "waits forever", "blocks in jax.lax.psum
	// forever", "never returns", "the process blocked", "nothing happens
	// after", "timed out after 30 minutes", "stalled".
	reHangWord = pattern("hangWord", `(?i)\b(?:hangs?|hanging|hung|stuck|freez(?:es|ing|e)|froze|frozen|deadlock(?:s|ed)?)\b|卡住|卡死|卡在|挂起|死锁|`+
		`\b(?:does(?:n't| not)|did(?:n't| not)|do(?:n't| not)|never|won't|will not|can't|cannot|could(?:n't| not))\s(?:make\s(?:any\s)?)?progress(?:es)?\b|\bno (?:further |more )?progress\b|`+
		`\b(?:waits?|waiting|waited|blocks?|blocking|blocked|sits?|sitting|spins?|spinning)\b.{0,40}\b(?:forever|indefinitely|infinitely)\b|`+
		`\bnever (?:returns?|returned|finish(?:es|ed)?|completes?|completed|ends?|terminates?|exits?|proceeds?)\b|`+
		`\b(?:is|are|was|were|gets?|got|being|been)\s(?:\w{1,20}\s)?blocked\b|\b(?:process|program|job|script|training)\s(?:blocks|blocked|block(?:$|[.,;:!]))|`+
		`\b(?:seems?|seemed|appears?|appeared)\sto\s(?:block|stall)\b|\b(?:blocks|blocked)\s(?:at|in|inside|on)\s(?:the\s)?\W?\w|`+
		`\bnothing (?:else |more )?happen(?:s|ed)\b|\btim(?:ed|es|e) ?out after \d{1,4}\s?(?:minutes?|mins?|hours?|hrs?|h)\b|\bstall(?:s|ed|ing)\b|`+
		// "The process looks suspended ... could not be killed by ctrl-c"
		// (OpenNMT/CTranslate2#665): said of how the run looks, not of a
		// scheduler's suspend ("the job was suspended by Slurm").
		`\b(?:process(?:es)?|program|script|training|run|it)\s(?:\w{1,12}\s)?(?:looks|looked|seems|seemed|gets|got|becomes|became)\s(?:\w{1,12}\s)?suspended\b|`+
		`\b(?:can(?:not|'t)|could(?:n't| not)|won't|will not)\s(?:even\s)?be\s(?:killed|stopped|interrupted)\s(?:by|with)\s(?:ctrl|control)\b|`+
		// "进程会出现阻塞现象...日志停留在通信初始化完成阶段", "程序会出现卡顿", "就停滞不前"
		// (Chinese rewrites of NCCL threads on blog.gitcode.com), "卡主" for 卡住.
		`没有?反应|不动了|一直等待|无响应|没有进展|阻塞|停滞|卡顿|卡主|(?:日志|输出|程序|进程|训练)[^。\n，,]{0,4}停留在`)
	// "hang" itself is a noun and a verb of what may come ("can cause a hang"):
	// only after what hung ("The process hang.", NVIDIA/nccl-tests#229; "the
	// demo seem to hang", horovod/horovod#880) or a verb of seeing one ("we get a
	// hang on checkpoint save", meta-pytorch/torchtune#1175; "it triggers an
	// eternal hang", EleutherAI/lm-evaluation-harness#2904).
	reHangBare = pattern("hangBare", `(?i)\b(?:hangs|hanging|hung|stuck|freezes|freezing|froze|deadlock(?:s|ed)?)\b|卡住|卡死|卡着不动|挂起|死锁|`+
		`\b(?:process(?:es)?|program|demo|training|job|script|code|run|test|server|everything)\s(?:\w{1,12}\s)?(?:(?:seems?|seemed|appears?|appeared)\sto\s|will\s|would\s|just\s|still\s)?hang\b|`+
		`\b(?:get|gets|got|getting|see|saw|seeing|observe[sd]?|observing|encounter(?:s|ed)?|experienc(?:e|es|ed|ing)|triggers|triggered|hit|hits|hitting)\s(?:an?\s|the\s|this\s|same\s)?(?:\w{1,12}\s)?hang\b|`+
		`\bhang (?:problem|issue)s? (?:shows? up|showed up|appears?|appeared|happens?|happened|occurs?|occurred)\b|`+stuckAtZero)
	// Without a place, the words say less: "I'm stuck with 256MB GARTs"
	// (ROCm/amdgpu#78) has to live with it, a browser or a desktop that
	// froze is the host's, and a deadlock avoided or fixed never came.
	// GPUs said to sit at full utilization while they draw little power:
	// NCCL's kernels spinning on a peer that never answers, a hang however
	// it is worded ("GPU功耗很低 但是GPU利用率满载", QwenLM/Qwen#970; "The
	// `nvidia-smi` shows $100\%$ of utilization, but I believe they are
	// all idle due to the low power usage", Infini-AI-Lab/MagicDec#2).
	reSpin = pattern("spin", `(?i)(?:\butil\w*|\busage\b|利用率|占用率)[^\n]{0,40}?(?:100\s?\\?%|满载|拉满|跑满)|100\s?\\?%\$?\s(?:of\s)?(?:the\s)?(?:gpu[- ]?)?util`)
	// Or beside a run said to make no progress: "After some iters the
	// GPU-Util 100% but the process is always waiting" (open-mmlab/mmdetection#4535).
	reSpinPower = pattern("spinPower", `(?i)\b(?:low|idle|little)\s(?:power|wattage)\b|\bpower\s(?:usage|draw|consumption)\s(?:is\s|stays\s|remains\s|drops\s(?:to\s)?)?(?:very\s)?(?:low|idle)\b|\bpower\s(?:usage|draw|consumption)\s(?:is|are|stays?|remains?)\s(?:as if|like)\s[^.\n]{0,20}?\bidl(?:e|ing)\b|功耗[^。\n]{0,4}(?:很低|较低|低|只有)|`+
		`\b(?:is|are|keeps?|kept|stays?|always|still)\s(?:always\s|still\s)?waiting\b|\bno (?:progress|new output)\b|\bnothing (?:happens|moves)\b`)
	reHangBareNot = pattern("hangBareNot", `(?i)\bstuck with\b|\b(?:browser|pc|computer|desktop|laptop|screen|display|mouse|gui|ui|os)\s(?:\w{1,12}\s)?(?:froze|freezes|freezing|hangs|hung|stuck)\b|\b(?:avoid(?:s|ed)?|prevent(?:s|ed)?|fix(?:es|ed)?|solve[sd]?|resolve[sd]?)\s(?:\w{1,12}\s){0,2}(?:hangs|deadlocks?|freezes)\b`)
	reHangNot     = pattern("hangNot", `(?i)(?:\bnot|\bnever|\bno longer|n't|\bwithout)\s{1,4}(?:\w{1,20}\s{1,4})?(?:hang|hung|stuck|freez|froze|deadlock|stall|block)|`+
		// A hang that may come, not one that came ("can cause a hang",
		// "causing ... or even a hang"); freezing layers and stuck on how.
		`\b(?:can|could|may|might|will|would)\s(?:\w{1,20}\s){0,2}(?:cause[sd]?|lead to|result in|trigger)\b.{0,100}\b(?:hang|deadlock|stall|freez)|\bor even (?:a |to )?(?:hang|deadlock|stall)|`+
		`\b(?:warp|pipeline|memory|instruction)\sstall|\bstall reasons?\b|\bprogress ?bars?\b|\bblock(?:s|ed)? (?:size|sizes|dim)\b|`+
		`\bfreez\w{0,3}\s(?:the\s)?(?:\w{1,20}\s)?(?:layers?|weights?|params|parameters|backbone|encoder|embeddings?)\b|\bfrozen\s(?:\w{1,20}\s)?(?:layers?|weights?|params|parameters|backbone|encoder|embeddings?)\b|\bstuck (?:on how|at how|trying to figure)\b|瓶颈[^。\n]{0,4}卡在`)
	// Where the hang is; in Chinese also the count of cards ("两卡",
	// "双卡", "8卡"), as people there name a multi-GPU run.
	// A hang that points at what follows: "the whole thing is stuck on
	// here:", "it hangs at the following:" (deepseek-ai/DeepSeek-V3#487,
	// the launch's command and its log on the next lines): the place is
	// what the paste shows next, so no word of it is asked of the line.
	// "it never returns from:" (NVIDIA/tacotron2#38, the call on the lines
	// after it) points the same way.
	reHangIntro = pattern("hangIntro", `(?i)\b(?:(?:stuck|hangs?|hung|hanging|freez(?:es|ing|e)|froze|frozen)\s(?:on\s|at\s|in\s)?(?:here|this|the following|below)|never (?:returns?|returned|finish(?:es|ed)?|completes?|completed|proceeds?) (?:from|past)(?:\s(?:here|this|the following|below))?)\s?:\s?$`)
	reHangWhere = pattern("hangWhere", `(?i)\b(?:in|at|during) (?:the )?init(?:iali[sz]ation)?\b|all_?reduce|all-reduce|all_?gather|reduce_?scatter|broadcast|barrier|init_process_group|\bnccl|collective|\bgpus?\b|multi-?gpu|p2pBandwidthLatencyTest|simpleP2P|_perf\b|\bddp\b|distributed|deepspeed|torchrun|tensor.parallel|\bcuda\b|\.generate\(|vllm|分布式|多卡|显卡|`+
		`all_?to_?all|horovod|\bjax\b|\bpmap\b|\bpsum\b|mpirun|\btraining\b|\btrain\(|\bfsdp\b|megatron|训练|单卡|[两双二三四六八]张?卡|\d\s?张?卡`)
	// Wrong output; in Chinese, garbled output (乱码, 胡言乱语) said of a
	// model's output or result, not of a log's encoding; a model that
	// answers garbage, a run of Gs or only exclamation marks (llama.cpp's
	// and vLLM's garbled tokens: ollama/ollama#5087, #7575); what a setting
	// results in ("Setting to 1 results in gibberish", ggml-org/llama.cpp#14795)
	// or what the model easily does ("很容易胡言乱语", baichuan-inc/Baichuan2#86);
	// there only 胡言乱语, as text that "会出现乱码" is often a console's encoding.
	// Results said to differ only a little: between runs, ranks or GPU
	// counts ("the predict result diff is very small", "slightly different
	// loss", "not deterministic", "the md5 of the saved gradient is
	// inconsistent", horovod/horovod#1121 and #1548). Another order of
	// summation gives that; lost or garbled data differs by the values.
	// Said of results, not of speed (reCloseTopic).
	reCloseSaid = pattern("closeSaid", `(?i)\b(?:slight(?:ly)?|(?:very\s)?small|tiny|minor|negligible|minimal)\s(?:\w{1,12}\s){0,2}(?:differen(?:t|ces?)|diffs?|deviations?|discrepanc(?:y|ies)|variations?|mismatch(?:es)?)\b|\b(?:diff|difference|discrepancy|deviation)\s(?:is|are|was|were)\s(?:very\s|quite\s|extremely\s)?(?:small|tiny|minor|negligible)\b|\bnot\s(?:\w{1,12}\s)?(?:bit[- ]?(?:wise|exact)|bitwise[- ]identical|deterministic|reproducible)\b|\bnon-?determinis\w{0,6}\b|\bmd5\b.{0,60}\b(?:inconsistent|differ\w{0,3}|changes?|not the same)\b|(?:略有|稍有|细微|微小|轻微|一些|有些|少许)的?(?:不同|差异|差别|区别)|`+
		// Results said to differ between one GPU and several, with no word
		// of how much ("The output of the same model is different when
		// using only one gpu and two", vllm-project/vllm#7645; "在 allreduce
		// 后变得不一致", InternLM/lmdeploy#1124): in the reports of the sets,
		// nearly all were the order of the sums, not data garbled between
		// the GPUs, which are said as wrong, garbage or NaN (output.wrong).
		`\b(?:outputs?|results?|answers?|responses?|predictions?|accuracy)\b[^\n]{0,50}?\b(?:is|are|was|were)\s(?:\w{1,12}\s)?different\s(?:when|with|between|on|using|for)\b[^\n]{0,40}?\b(?:gpus?|cards?|tp|tensor[ _-]?parallel\w*|ranks?|devices?)\b|`+
		`\bdifferent\s(?:\w{1,12}\s)?(?:outputs?|results?|answers?|predictions?|accuracy)\s(?:\w{1,12}\s)?(?:with|on|using|between|when|for)\b[^\n]{0,40}?\b(?:gpus?|cards?|tp|tensor[ _-]?parallel\w*|ranks?|devices?)\b|`+
		`(?:多卡|单卡|双卡|\d\s?卡|tp\s?=?\s?\d)[^。\n]{0,30}(?:结果|输出|回答)[^。\n]{0,10}(?:不一致|不一样|不同)|(?:结果|输出|回答)[^。\n]{0,10}(?:不一致|不一样|不同)[^。\n]{0,30}(?:多卡|单卡|双卡|\d\s?卡)|all_?reduce\s?后[^。\n]{0,6}不一致`)
	reCloseTopic = pattern("closeTopic", `(?i)\b(?:results?|outputs?|values?|loss(?:es)?|gradients?|weights?|models?|predictions?|predict|logits?|accuracy|tensors?|sums?|md5|checksums?|parameters?)\b|结果|输出|梯度|权重|精度`)
	reWrongOut   = pattern("wrongOut", `(?i)\b(?:wrong|incorrect|corrupt(?:ed)?|garbage|garbled|gibberish|nonsense|bogus)\s(?:\w{1,20}\s){0,2}(?:values?|results?|outputs?|data|answers?|responses?|repl(?:y|ies)|numbers?|text|tokens?|tensors?|gradients?|generations?|completions?|predictions?)\b|\b(?:outputs?|outputting|returns?|returning|prints?|printing|gives?|giving|generates?|generating|produces?|producing|spits?|spitting|spills?|spilling|responds?|responding|results? in|resulting in|is|are)\s(?:\w{1,20}\s){0,2}(?:gibberish|garbage|nonsense|zeros)\b|\b(?:nan|zeros?|0)\W{0,3}\sinstead of\b|\b(?:data|values?|results?|outputs?|tensors?|gradients?)\s(?:\w{1,20}\s){0,4}(?:is|are|was|were|looks?|seems?|becomes?|be)\s(?:all\s|completely\s|totally\s|always\s)?(?:wrong|incorrect|corrupt(?:ed)?|garbage|garbled)\b|\b(?:results?|outputs?|values?)\s(?:were|was|are|is)\s(?:completely|totally|way)\soff\b|\bsilent(?:ly)? corrupt|\b(?:cop(?:y|ied|ies|ying)|mov(?:e|es|ed|ing)|transfer(?:s|red|ring)?)\b.{0,60}\b(?:zeroed out|zero tensors?|all zeros)\b|(?:推理|生成|回答|回复|模型|结果)[^。\n]{0,30}(?:乱码|胡言乱语)|(?:多卡|多张卡|双卡|[2-8两三四八]张卡)[^。\n]{0,40}(?:乱码|胡言乱语)|(?:容易|经常|总是|会|出现|开始|一直)[^。\n，,]{0,4}胡言乱语|(?:返回|输出|推理|生成)(?:的)?(?:结果|内容|文本)[^。\n，,]{0,8}(?:是)?(?:错误的|不对|错乱|凌乱|混乱)|\b(?:outputs?|shows?|showing|answers?|answering|responds?|responding|prints?|printing|returns?|returning|gives?|giving|generates?|generating|produces?|producing)\b[^.\n]{0,40}?\b(?:garbage|gibberish|nonsense)\b|GGGGGG|\ball (?:exclamation marks|!+)|!!!!["'\x60]?\s(?:responses?|outputs?|answers?|replies|tokens)\b`)
	// A loss said to become NaN ("when i use 8 gpus, loss will meet nan",
	// gitzyong812/VS3_CVPR23#7; "Avg Loss : 1xxx → 2.x → 1xx → nan",
	// AlexeyAB/darknet#2327; "NaN loss"). With several GPUs it is, in most
	// threads, the learning rate or the batch per GPU, not data the path
	// between the GPUs garbled (the entry says how to tell them apart).
	// The NaN tied to some pairs of GPUs ("when running multi-GPU training
	// with certain pairs of GPUs, the loss becomes NaN",
	// tensorflow/tensorflow#105552) points at the path between those pairs.
	reNaNPairs = pattern("nanPairs", `(?i)\b(?:certain|some|specific|particular)\s(?:pairs?\sof\s)?(?:gpus?|cards?|gpu\spairs?)\b|\bgpus?\s?\d\s?(?:and|&|with|\+)\s?(?:gpu\s?)?\d\b`)
	// A NaN named as what a check looks for, not as what the loss became:
	// "a loss check to make sure the loss is not nan/inf ... card A detects
	// a nan and skips this iteration" (datvuthanh/HybridNets#91).
	reLossNaNNot = pattern("lossNaNNot", `(?i)\b(?:not|no|never|without|isn't|check(?:s|ed|ing)?\s(?:for|if|whether)|detects?|detected|guards? against)\s(?:an?\s|any\s)?-?nan\b|\bnan\s?checks?\b`)
	reLossNaN    = pattern("lossNaN", `(?i)\bloss(?:es)?\b.{0,60}?(?:^|[^\w.-])-?nan\b|\bnan\b[^.\n]{0,20}?\bloss(?:es)?\b|\bnan or inf\b[^.\n]{0,40}?\bloss(?:es)?\b|(?:损失|loss)[^。\n]{0,10}?(?:变成|出现|为|是)\s?-?nan\b|\bgrad(?:ient)?[_ ]?norms?\b[^.\n]{0,30}?(?:^|[^\w.-])-?nan\b`)
	// A loss said or shown to fall to 0: "the loss has been 0", "loss
	// becomes 0 after the first 10 steps", the Trainer's {'loss': 0.0,
	// ...}, "损失为0". With several GPUs and DeepSpeed's ZeRO stage 2 it
	// is the reduction garbling the gradients (deepspeedai/DeepSpeed#5242,
	// #5347): a figure of 0 standing alone (bareZero), not 0.01 or 10.
	reLossZero = pattern("lossZero", `(?i)\bloss(?:es)?\s(?:\w{1,12}\s){0,2}?(?:is|was|were|are|be|becomes?|became|been|goes|went|going|drops?|dropped|falls?|fell|turns?|turned|stays?|stayed|remains?|stuck|collapses?|collapsed)\s(?:(?:to|at|down|always|exactly|all|only|suddenly|just|then|directly)\s){0,2}(?:0(?:\.0+)?(?:[^\w.]|\.(?:\s|$)|$)|zero\b)|\bloss(?:es)?['"]?\s{0,2}[:=]{1,2}\s{0,2}0(?:\.0+)?(?:[^\w.]|\.(?:\s|$)|$)|(?:损失|loss)\s?值?\s?(?:一直|都|总是|突然)?\s?(?:为|是|变成|变为|降为|降到)\s?0(?:\.0+)?(?:[^\w.]|\.(?:\s|$)|$)`)
	// DeepSpeed's ZeRO stage 2 named, or the settings of its reduction that
	// some releases get wrong: overlap_comm on, ZeRO++ (hpZ), the
	// multi-rank bucket all-reduce of 0.12.4 on (deepspeedai/DeepSpeed#4298,
	// #5059, #5242): "zero2", "ZeRO-2", "ds_z2_config.json", "--deepspeed
	// zero2", "zero_stage: 2", `"stage": 2`, "overlap_comm=True".
	reZeRO2 = pattern("zero2", `\b(?:[Zz]ero|ZeRO|ZERO)[-_ ]?(?:[Ss]tage[-_ ]?)?2\b|\bds_z2_|\bzero_stage["']?\s{0,2}[:=]\s{0,2}2\b|"stage"\s{0,2}:\s{0,2}2\b|\bzero_optimization_stage\W{1,40}2\b|\boverlap_comm["']?\s{0,2}[:=]\s{0,2}["']?(?:true|True)\b|\b(?:[Zz]ero|ZeRO|ZERO)\+\+|\bhpZ\b|\buse_multi_rank_bucket_allreduce\b`)
	// The process group's set-up, named where a hang is said ("hangs at
	// init_process_group", "stuck at initializing ddp", "在deepspeed init时hang住"),
	// or printed by the launch as the log stops (DeepSpeed's
	// init_distributed lines, Lightning's "initializing ddp: GLOBAL_RANK",
	// PyTorch's store-based barrier, torchelastic's rendezvous): the ranks
	// have not all met, before NCCL sets up a communicator. NCCL's own
	// init is not it ("hangs after NCCL init": the ranks met), nor a
	// collective's rendezvous in XLA, nor deepspeed.initialize, which
	// broadcasts the model, a collective.
	reInitStage = pattern("initStage", `(?i)\b(?:stuck|hangs?|hung|hanging|freez(?:es|ing|e)|froze|blocks?|blocked) (?:in|at|during) (?:the )?init(?:iali[sz]ation)?\b|init_process_group|\binit_distributed\b|\binitiali[sz]ing (?:ddp|distributed|(?:the )?process group|torchbackend)\b|\b(?:at|in|during) (?:the )?rendezvous\b|\brdzv\b|store.based.barrier|\binit(?:iali[sz]e)? (?:the )?(?:process group|distributed)\b|\bdeepspeed[ _]init\b|(?:分布式|进程组)[^。\n]{0,6}初始化|初始化[^。\n]{0,6}(?:分布式|进程组)`)
	// Where the hang line puts the hang later than the set-up it names:
	// "passing device_id to init_process_group() results in NCCL randomly
	// hanging during communications" (pytorch/pytorch#153960).
	reInitNot = pattern("initNot", `(?i)\bduring (?:the )?(?:communications?|training|collectives?|all_?reduce|forward|backward|inference|evaluation)\b|\bafter (?:\w{1,12} )?(?:iterations?|steps?|epochs?|batches)\b|\brandomly\b`)
	// A hang that came after the run made progress, said on the hang's
	// line: after some iterations, steps, epochs or hours, at iteration
	// 4300, at the end of an epoch, mid-training, during evaluation or
	// checkpointing ("after some iterations the
	// training program always stuck", open-mmlab/mmdetection#3563; "卡在
	// Epoch 0的第30个iterations", Intellindust-AI-Lab/DEIMv2#113). The path
	// between the GPUs carried the collectives before it, so the ranks
	// falling out of step is likelier than a path that drops peer traffic,
	// which hangs at the first collective. Minutes are not progress: "hangs
	// after 30 minutes" is the watchdog's timeout. Nor is a hang said to come
	// at random: in the reports behind the entries those were as often a
	// release's bug or a path that hangs now and then.
	// A run said to fail at the default timeout of the process group or
	// the collective, 30 minutes ("每次到30分钟报错timeout", hiyouga/LlamaFactory#662;
	// "times out after 30 minutes"): something waited that long, a hang
	// whatever the words around it.
	reTimeoutSaid = pattern("timeoutSaid", `(?i)(?:\b30|三十)\s?(?:min(?:ute)?s?\b|分钟)[^\n]{0,30}?(?:time\s?out|timed out|超时)|(?:\btime\s?outs?\b|\btimed out|\btimes out|超时)[^\n]{0,30}?(?:\b30|\bthirty|三十)\s?(?:min(?:ute)?s?\b|分钟)|\b1800\s?(?:s\b|sec\b|secs\b|seconds\b|000\s?ms\b)`)
	reTimeoutNot  = pattern("timeoutNot", `(?i)\b(?:without|no|never|not|n't)\s(?:\w{1,12}\s)?(?:a\s|any\s)?(?:time\s?outs?|timed out)|没有超时|不超时|不会超时`)
	// A hang said to come at the first collective or step, or before the
	// run starts ("hangs at the first all_reduce", "The training never
	// starts. It's stuck like this forever", IAHispano/Applio#1153): a path
	// that drops peer traffic hangs there, while ranks out of step more
	// often hang after the run made progress.
	reHangFirst = pattern("hangFirst", `(?i)\b(?:at|on|in|during)\s(?:the\s)?(?:very\s)?first\s(?:all[_ -]?reduce|all[_ -]?gather|broadcast|barrier|collective|communication|iteration|iter|step|batch|forward pass|forward)\b|\bnever\s(?:even\s)?starts?\b|\b(?:doesn't|does not|didn't|did not|won't|will not|can't|cannot)\s(?:even\s)?start\b|\bbefore\s(?:the\s)?(?:first|any)\s(?:iteration|step|batch|output)\b|第一(?:个|次|步)(?:all_?reduce|迭代|step|batch)|`+
		// "Before the fist epoch is started, the output just hangs"
		// (ultralytics/ultralytics#3178), "stalls before beginning";
		// "会卡住，但也没报错，没有任务的训练时候 loss日志打印出来" (Facico/Chinese-Vicuna#49).
		`\bbefore\s(?:the\s)?(?:first|fist|1st)\s(?:epoch|iteration|iter|step|batch)\b|\bbefore\s(?:it\s|training\s)?(?:begins|beginning|starts|starting)\b|还没(?:有)?开始|`+stuckAtZero+`|没有[^，。,]{0,12}(?:loss|日志|输出)[^，。,]{0,6}(?:打印|输出)`)
	// A hang said with the progress the run made before it, in training's
	// units, says where it happens: in the training loop, whatever else the
	// line names.
	reHangProgress = pattern("hangProgress", `(?i)\b(?:epochs?|iterations?|iters?|steps?|batch(?:es)?)\b|迭代|轮`)
	reHangLater    = pattern("hangLater", `(?i)\bafter\s(?:(?:some|several|a few|many|a number of|thousands? of|hundreds? of|about|around|approximately|roughly)\s|~\s?)?(?:(?:\d[\d,.]*k?|one|two|three|four|five|ten|an?)\s?)?(?:(?:training|train|optimi[sz]ation|optimizer|gradient)\s)?(?:iterations?|iters?|steps?|epochs?|batches|hours?|hrs|days?|rounds?)\b|`+
		`\bafter\s(?:the\s)?(?:first|second|third|\d+(?:st|nd|rd|th))\s(?:iteration|iter|step|epoch|batch|evaluation|eval|checkpoint|dataset|task|benchmark)\b|`+
		`\bafter\s(?:completing|finishing|running|training|doing)\s(?:the\s)?(?:one|an?|\d+|first|second|a few|few|several|some)\s(?:full\s)?(?:iterations?|iters?|steps?|epochs?|batches|rounds?)\b|\bafter (?:running|training|working) (?:fine |well |normally )?for (?:a while|some time|hours|days|\d)|\bafter (?:a while|some time)\b|`+
		`\b(?:at|on|in|around|near|towards?)\s(?:the\s)?(?:specific\s)?(?:end of (?:the |an? |each |every )?(?:single |first |one )?epoch|end of (?:the )?training\b|last (?:iteration|iter|step|batch)\b|(?:iteration|iter|step|batch)\s?[(#:=]?\s?[1-9]\d|epoch\s?[(#:=]?\s?[1-9]|\d+(?:st|nd|rd|th)\s(?:iteration|iter|step|epoch|batch))|`+
		// "it always stuck in the 88 epoch" (facebookresearch/3detr#22).
		`\b(?:at|on|in|around|near)\sthe\s[1-9]\d{0,5}\s(?:iteration|iter|step|epoch|batch)\b|`+
		`\bmid[- ]?(?:training|run|epoch)\b|\bin the middle of (?:training|the run|an epoch|the epoch)\b|`+
		`\b(?:during|at|when|in)\s(?:the\s)?(?:evaluation|validation|eval|evaluating|validating|checkpoint(?:ing)?|saving)\b|`+
		// "Training hangs in the end while calling dist.barrier()"
		// (huggingface/transformers#17478); "training is ok but get stuck
		// in `accelerator.save_state(save_path)`" (huggingface/diffusers#2606).
		`\b(?:hangs?|hung|hanging|stuck|freez(?:es|ing|e)|froze)\s(?:in|at)\sthe\s(?:very\s)?end\b|`+
		`\b(?:in|at|during|when calling|while calling)\s`+"`"+`?(?:\w{1,20}\.)?(?:save_state|save_checkpoint|save_pretrained|save_model)\b|`+
		// "在推理完第一个数据集之后会卡住" (open-compass/VLMEvalKit#726): a part of
		// the work finished, then the hang.
		`(?:训练|跑)了?一段时间|(?:跑|推理|训练|评测|评估|测试|处理)完[^。\n，,]{0,14}(?:之后|以后|后)|第\s?\d+\s?个?\s?(?:iter|step|epoch|轮|步|个)|训练到[^。\n]{0,12}(?:时|后)|中途|(?:验证|评估|保存)[^。\n]{0,6}(?:时|的时候)`)
	// A launch over several nodes whose master address is the local host
	// ("torchrun --nnodes 2 --nproc-per-node 8 --node-rank 1 --master-addr
	// 127.0.0.1", deepseek-ai/DeepSeek-V3#487; "多节点训练的例子...master_addr设置成
	// 127.0.0.1会报错", modelscope/ms-swift#2485): every node then looks for the
	// rendezvous on itself, so the nodes never meet. The node count and the
	// address on one line.
	reMasterLoopback = pattern("masterLoopback", `(?i)(?:(?:--nnodes[= ]|\bnnodes=|\bnum_nodes=|--num[_-]nodes[= ])["']?(?:[2-9]|\d{2})|--node[_-]rank[= ]["']?[1-9]\d?)\b.{0,300}\bmaster[_-]?addr(?:ess)?\b[^\n]{0,12}?(?:127\.0\.0\.1|localhost)\b|\bmaster[_-]?addr(?:ess)?\b[^\n]{0,12}?(?:127\.0\.0\.1|localhost)\b.{0,300}(?:--nnodes[= ]|\bnnodes=|\bnum_nodes=|--num[_-]nodes[= ])["']?(?:[2-9]|\d{2})\b|`+
		`(?:多节点|多机|multi-?\s?node|multiple nodes|two nodes|2 nodes)[^\n]{0,80}\bmaster[_-]?addr(?:ess)?\b[^\n]{0,12}?(?:127\.0\.0\.1|localhost)\b|`+
		// PaddlePaddle's list of the nodes with the local host among others:
		// "--ips=\"127.0.0.1,10.19.174.228\"" (PaddlePaddle/PaddleDetection#7998).
		`--ips[= ]["']?(?:127\.0\.0\.1|localhost),\d|--ips[= ]["']?[\d.]+,(?:127\.0\.0\.1|localhost)\b`)
	// Memory or work said to land on GPUs other than the one chosen: "模型和数据都加载到0号显卡上，
	// 但是发现2， 3， 4上也会有占用" (mymusise/ChatGLM-Tuning#235), "There are also places
	// where it defaults to using the first GPU" (andimarafioti/faster-qwen3-tts#42).
	// A process that sees every GPU creates contexts or places work on
	// them, or a program that hard-codes cuda:0: the launch or the code,
	// not the link.
	reElsewhere = pattern("elsewhere", `(?i)(?:其他|其它|另外|别的)的?(?:显卡|卡|gpu)上?也?会?有(?:显存)?占用|\d(?:\s?[，,、]\s?\d){1,6}\s?号?(?:显卡|卡|gpu)?上?也会?有(?:显存)?占用|`+
		`\b(?:still|also)\s(?:\w{1,12}\s){0,2}(?:uses?|using|allocat\w{0,6}|occup\w{0,5}|takes?|creates?)\s(?:\w{1,12}\s){0,3}?(?:memory\s)?on\s(?:the\s)?(?:(?:first|other|all|every|each)\s(?:\w{1,12}\s)?(?:gpus?|cards?|devices?)|default\s(?:gpu|card|device)|gpu\s?0|cuda:0|device\s?0)\b|`+
		`\bdefaults?\sto\s(?:using\s)?(?:the\s)?(?:first\s(?:gpu|card|device)|gpu\s?0|cuda:0|device\s?0)\b|`+
		// A device chosen and not taken: "passing in physx_cuda:n or cuda:n
		// would not change the device selected" (haosulab/ManiSkill#1160).
		`\b(?:would|does|did|do|will)\s?(?:not|n't)\s(?:change|respect|honou?r)\s(?:the\s)?(?:\w{1,12}\s)?(?:device|gpu|cuda device)\b|\b(?:the\s)?(?:first\s(?:gpu|card)|gpu\s?0|cuda:0)\s(?:is|was)\s(?:still|also)\s(?:being\s)?used\b|`+
		// Contexts made on GPU 0 by every process, a part loaded there while
		// the rest is spread.
		`\b(?:creates?|creating|created|makes?|making|opens?|initiali[sz](?:es|ed|ing|e))\s(?:an?\s)?(?:additional|extra|another|more|unnecessary|unwanted|redundant)\s(?:cuda\s)?contexts?\s(?:\w{1,12}\s){0,2}?on\s(?:gpu\s?0|cuda:0|device\s?0)\b|`+
		`\b(?:loaded|placed|allocated|put|moved|created|lands?|landing|ends? up)\s(?:\w{1,12}\s)?(?:on|to|onto)\s(?:gpu\s?0|cuda:0|device\s?0)\b[^.\n]{0,20}\b(?:while|but|although|instead|regardless)\b|`+
		`(?:0\s?号|(?:^|[^\d])0\s?|第[一0]\s?[张块个])\s?(?:显卡|卡|gpu)[^，。,\n]{0,10}(?:(?:特别|明显|格外|非常|很)(?:高|多|大)|比(?:其他|其它|别的)|占满|满了|爆了|爆显存)`)
	// A run on one GPU chosen by its index, said to work on the first and
	// to fail on another: "when I test on my first GPU Faiss is ok but when
	// i test on the second GPU on the same machine, it has trouble"
	// (facebookresearch/faiss#608), "the GPU0 one produces proper output
	// while the GPU 1 one throws segfault", "with `device_id` other than 0,
	// the application will segfault" (microsoft/onnxruntime#1881). The
	// program or a library it calls puts its work, context or allocator on
	// device 0 whatever device it is given; a GPU at fault fails however
	// it is numbered. This pattern is the form said in one phrase, a
	// device id other than 0 that fails; reFirstOK and reOtherFails are
	// the two halves of the other forms.
	reFirstOnly = pattern("firstOnly", `(?i)`+notDeviceZero+`.{0,80}`+failsWord+`|`+failsWord+`.{0,80}`+notDeviceZero)
	// The two halves, said on one line or on lines a little apart ("when
	// I test on my first GPU Faiss is ok" / "but when i test on the second
	// GPU on the same machine, it has trouble").
	reFirstOK    = pattern("firstOK", `(?i)`+firstGPU+`.{0,70}`+worksWord+`|`+worksWord+`.{0,70}`+firstGPU)
	reOtherFails = pattern("otherFails", `(?i)`+failsWord+`.{0,60}`+otherGPU+`|`+otherGPU+`.{0,40}`+failsWord)
	// Tensors said to be on different devices, in words rather than
	// PyTorch's own line: "提示中间计算部分变量不在同一个 device 上"
	// (OpenBMB/MiniCPM-V#125), "说是所有的张量 必须在一块卡上"
	// (PKU-YuanGroup/Video-LLaVA#105), "被部署到了和input_ids不同的gpu上"
	// (OpenGVLab/InternVL#95). A model split over GPUs whose code uses one
	// GPU's tensor on another's, the program's placement.
	reMixedDevices = pattern("mixedDevices", `(?i)\b(?:not|aren't|isn't|weren't|wasn't)\s(?:all\s)?(?:on|in)\s(?:the\s)?same\s(?:device|gpu|cuda device|card)\b|`+
		`\b(?:tensors?|inputs?|weights?|variables?|parameters?|arguments?|activations?)\b[^.\n]{0,40}?\b(?:on|in|to)\s(?:two\s)?different\s(?:devices|gpus|cards)\b|`+
		`不在同一(?:个|张|块)?\s?(?:device|设备|gpu|卡|显卡)|(?:必须|需要|应该|要)在(?:同)?一(?:块|张|个)(?:卡|显卡|gpu|设备|device)上|(?:和|与|跟)[^，。,\n]{0,30}不同的\s?(?:gpu|卡|显卡|设备|device)上`)
	// A training run, said or shown ("training hangs", "Epoch 3", "loss",
	// "fine-tuning", "训练", "微调"): a hang in training is, in the reports
	// behind the entries, more often ranks out of step (a branch, an uneven
	// batch, evaluation or saving on one rank) than a path that drops peer
	// traffic, which inference servers hang on as often.
	reTraining = pattern("training", `(?i)\b(?:train(?:s|ed|ing|er)?|epochs?|loss|fine-?tun(?:e|es|ed|ing)|finetun(?:e|es|ed|ing)|sft|lora|backward|optimizer\.step|trainer\.fit)\b|训练|微调`)
	// Files one node wrote that another cannot see: no storage shared
	// between the nodes ("No shared storage between the nodes",
	// axolotl-ai-cloud/axolotl#884; "isolated (not shared) filesystems on
	// each node", NVIDIA-NeMo/Speech#6715; "training data does not live on
	// NFS but on node-specific storage", NVIDIA/Megatron-LM#907), or the other
	// node that cannot find what was saved ("the worker node can't find a
	// valid checkpoint at the selected path").
	reNodeLocal = pattern("nodeLocal", `(?i)\b(?:no|not|without|isn't|aren't|don't have|doesn't have|non-?)\s?(?:a\s|any\s)?shared\)?\s(?:file\s?systems?|fs|storage|disks?|drives?|nfs|directory|directories|folders?)\b|\bnode[- ](?:local|specific)\s(?:disks?|storage|file\s?systems?|ssds?|data|paths?)\b|`+
		`\b(?:worker|other|second|slave|non-?zero|another|remote|rest of the)\s(?:\w{1,12}\s)?(?:nodes?|machines?|hosts?)\s(?:\w{1,12}\s){0,2}?(?:can(?:no|')t|could(?:n't| not)|does(?:n't| not)|did(?:n't| not)|fails? to|failed to)\s(?:\w{1,12}\s)?(?:find|see|load|access|open|read)\b|没有共享存储|非共享(?:存储|文件系统)|不共享(?:存储|文件系统|磁盘)`)
	// A second job said to run on the same machine ("I want to parallel
	// train two datasets on the same machine with different GPU at the same
	// time", open-mmlab/mmsegmentation#163; "multiple experiments on one
	// computing node", wenet-e2e/wespeaker#171; 同一台机器上同时跑两个训练): each
	// launch takes the default rendezvous port, which the first already holds.
	// Jobs, not processes: several processes on one node is any launch.
	reSecondJob = pattern("secondJob", `(?i)\b(?:two|2|second|another|multiple|several|other)\s(?:\w{1,12}\s){0,2}(?:jobs?|trainings?|training runs?|experiments?|tasks?|programs?|scripts?|datasets?|models?|configs?)\b[^.\n]{0,60}?\b(?:on|in|at)\s(?:the\s)?(?:same|one|a single|single)\s(?:\w{1,12}\s)?(?:machine|node|server|host|computer|box|workstation)\b|`+
		`\b(?:same|one|a single|single)\s(?:\w{1,12}\s)?(?:machine|node|server|host|computer|workstation)\b[^.\n]{0,60}?\b(?:two|2|second|another|multiple|several)\s(?:\w{1,12}\s){0,2}(?:jobs?|trainings?|training runs?|experiments?|tasks?|programs?|scripts?)\b|`+
		`同一(?:台|个)?(?:机器|服务器|节点|主机)[^。\n]{0,30}(?:两个|多个|另一个|第二个|2个)(?:任务|训练|实验|程序|作业)|(?:两个|多个|另一个|第二个|2个)(?:任务|训练|实验|程序|作业)[^。\n]{0,30}同一(?:台|个)?(?:机器|服务器|节点|主机)|同时(?:跑|运行|训练|启动)(?:两个|多个|2个)(?:任务|训练|实验|程序|作业)`)
	// Turning NCCL's P2P off said to make the run work ("If I set
	// NCCL_P2P_DISABLE=1, I can use as many GPUs as I like",
	// pytorch/pytorch#85334; "add the environment variable
	// NCCL_P2P_DISABLE=1 before launch model will be ok",
	// hiyouga/LlamaFactory#2672; "figured this out by setting
	// NCCL_P2P_LEVEL=NVL", shivammehta25/Matcha-TTS#57): the path between the
	// GPUs is what fails, not the program. The setting and what it did on
	// one line, either way round.
	reP2POff = pattern("p2pOff", `(?i)(?:NCCL_P2P_DISABLE\s?=\s?["'`+"`"+`]?(?:1|true)\b|NCCL_P2P_LEVEL\s?=\s?["'`+"`"+`]?(?:NVL|LOC|0)\b)[^\n]{0,160}?(?:\b(?:works?|worked|working|fix(?:es|ed)?|solve[sd]?|resolve[sd]?|helped|helps|goes away|went away|disappear(?:s|ed)?|removes?|can use|runs? (?:fine|normally|well|through|smoothly)|be ok(?:ay)?|is ok(?:ay)?|no (?:more )?(?:hangs?|errors?|problems?|issues?))\b|正常|解决|好了|就行|成功|可以(?:跑|运行|训练|推理|用))|`+
		`(?:\b(?:works?|worked|working|runs? (?:fine|normally|well)|figured (?:this|it) out|fixed (?:it|this)|solved (?:it|this)|resolved (?:it|this))\b|正常|解决了?|好了)[^\n]{0,80}?(?:NCCL_P2P_DISABLE\s?=\s?["'`+"`"+`]?(?:1|true)\b|NCCL_P2P_LEVEL\s?=\s?["'`+"`"+`]?(?:NVL|LOC|0)\b)`)
	// Not a fix seen: a suggestion, a question, or the setting said not to
	// help ("no matter if NCCL_P2P_DISABLE=1 or not, the hanging always
	// occur", "Despite setting ... NCCL_P2P_DISABLE=1").
	reP2POffNot = pattern("p2pOffNot", `(?i)\bno matter\b|\bdespite\b|\beven (?:with|after|when|if|though)\b|\bor not\b|\bwhether\b|\bwhy not\b|\bstill (?:hangs?|hung|fails?|failed|stuck|not|doesn't|does not|the same|crash)|(?:\bnot|n't|no longer)\s(?:\w+\s){0,2}(?:work|help|fix|solve|resolve|change)|\b(?:try|trying|might|maybe|perhaps|should|could|suggest|recommend|please|see if|check if)\b|\?|不(?:行|起作用|管用|能解决)|没(?:有)?(?:用|效果|解决)|仍然|还是(?:不|卡|报错)|试试|尝试`)
	// Ranks said or shown to take different paths: an uneven number of
	// batches, an empty batch on some rank, LayerDrop, a collective under
	// "if rank == 0" ("If you run training with an uneven number of batches
	// on different GPUs, a hang will occur", microsoft/PyMarlin#80; "use
	// layer drop, the model training will hang", facebookresearch/fairscale#796).
	// Beside a hang, ranks out of step are the likely cause.
	reRanksDiverge = pattern("ranksDiverge", `(?i)数据(?:量)?不(?:平衡|均衡|均匀)|(?:各|每)个?(?:卡|rank|进程|gpu)的?(?:数据|batch|样本)数?量?不(?:一致|相同|同)|\buneven (?:number of |amount of )?(?:batch|batches|data|inputs?|samples|steps|shards?|splits?)\b|\bdifferent (?:number|numbers|amount) of (?:batch|batches|steps|samples|iterations|forward passes)\b|\b(?:if|when)\s\(?\s?(?:global_|local_)?rank\s?==\s?0\b|\brank[_ ]?0[_ ]only\b|\bonly (?:on )?rank ?0\b|\bis_main_process\b|\blayer[ _-]?drop\b|\bempty batch(?:es)?\b|@master_only\b|\brank_zero_only\b|`+
		// A rank said to skip a collective or never to reach it ("When I
		// intentionally let one process skip the allGather() step",
		// cupy/cupy#3557; "Ranks 1 and 2 never print").
		`\bskip(?:s|ped|ping)?\s(?:the\s|a\s|an\s)?(?:\w{1,12}\s)?(?:all_?gather\w*|all_?reduce\w*|broadcast\w*|barrier\w*|collectives?|reduce_?scatter\w*)|`+
		// One card or rank said to skip a step the others take, or to have
		// a loss or no gradient the others do not ("card A detects a nan and
		// skips this iteration, while card B ... marches into", datvuthanh/HybridNets#91;
		// "if loss on one GPU is 0, the code stuck ... no gradient is
		// calculated on one GPU", facebookresearch/maskrcnn-benchmark#619).
		`\b(?:card|gpu|rank|process|worker)\s?\w?\b.{0,60}\bskip(?:s|ped)\s(?:this|the|that|its|an?)\s(?:iteration|iter|step|batch|backward)\b|`+
		`\b(?:loss|gradients?)\s(?:on|of|in)\s(?:one|some|a single)\s(?:gpus?|cards?|ranks?|process(?:es)?|workers?)\s(?:is|are|was|were|becomes?)\s(?:0|zero|none|nan|empty)\b|`+
		`\bno gradients?\s(?:is\s|are\s|was\s|were\s)?(?:calculated|computed|produced)\s(?:on|for|in)\s(?:one|some)\s(?:gpus?|cards?|ranks?|process(?:es)?)\b|\b(?:one|some|other) (?:of the )?(?:ranks?|process(?:es)?|workers?)\s(?:\w{1,12}\s)?(?:never|didn't|did not|does not|doesn't|do not|don't)\s(?:call|calls|reach|reaches|enter|enters|join|joins)\b|`+
		// Generation under ZeRO-3: every forward step gathers the sharded
		// weights, so a rank whose sequences end early leaves the others
		// waiting ("inference would always hang up with ZeRO3 and multiple
		// gpus", deepspeedai/DeepSpeed#3550).
		`\bzero[-_ ]?(?:stage[-_ ]?)?3\b.{0,80}\b(?:generat(?:e|es|ed|ing|ion)|inference)\b|\b(?:generat(?:e|es|ed|ing|ion)|inference)\b.{0,80}\bzero[-_ ]?(?:stage[-_ ]?)?3\b|`+
		// The other GPUs busy and one idle while the run waits: one rank has
		// left the step the others wait in ("three gpus are in peak state,
		// another one is empty", Megvii-BaseDetection/YOLOX#1281).
		`\b(?:two|three|seven|other|the other|remaining|the rest of the|[2-7])\s(?:\w{1,12}\s)?(?:gpus|cards)\s(?:are|were|stay|sit)\s(?:\w{1,12}\s)?(?:at\s|in\s)?(?:100\s?%|peak|full|busy)\b.{0,60}\b(?:another|one|the other|the last|last)\s(?:one\s|gpu\s|card\s)?(?:is|was|stays?|sits?)\s(?:\w{1,12}\s)?(?:empty|idle|at 0\s?%|0\s?%)`)
	// A run said to work on one node and to fail or hang across nodes
	// ("single node works, 2 nodes hang", "单机多卡正常，多机卡住"): what
	// the nodes share is the network between them, not P2P inside one, so
	// the interface NCCL picked and the hosts' reachability come first.
	reOneNodeOK     = pattern("oneNodeOK", `(?i)\b(?:does not|doesn't|did not|didn't|never)\s(?:happen|occur)\w{0,2}\s(?:on|with|in|when using)\s(?:an?\s|the\s)?(?:single|one|1)[\s-](?:node|machine|host|server|computer)\b|\b(?:single|one|1)[\s-](?:node|machine|host|server|computer|pc|box|workstation)\b.{0,60}\b(?:works?|working|worked|fine|ok|okay|normal(?:ly)?|succeed(?:s|ed)?|pass(?:es|ed)?|no (?:problems?|issues?))\b|\b(?:works?|worked|working|(?:runs?|running) (?:very |really )?(?:fine|well)|succeeds?)\b.{0,40}\b(?:on|with|in|within)\s(?:a\s)?(?:single|one|1)[\s-](?:node|machine|host|server|computer|pc|box|workstation)\b|单机(?:多卡|单卡)?[^。\n，,]{0,12}(?:可以|正常|没有?问题|能跑|跑通|成功|没事)`)
	reMultiNodeFail = pattern("multiNodeFail", `(?i)\b(?:multi-?\s?nodes?|multiple (?:nodes|machines|servers|hosts|computers|pcs)|multi-?machines?|(?:two|2|three|3|four|4|several|more) (?:\w{1,12} )?(?:nodes|machines|servers|hosts|computers|pcs)|across (?:nodes|machines|hosts)|inter-?node|cross-?node)\b.{0,80}\b(?:hangs?|hung|hanging|stuck|freez\w*|fails?|failed|failing|errors?|crash\w*|time[sd]? ?out|timeout|(?:does|did)(?:n't| not) work|not working|can(?:'t|not) (?:connect|communicate))\b|\b(?:hangs?|hung|stuck|fails?|failed|errors? out|crash(?:es|ed)?|times? out)\b.{0,60}\b(?:multi-?\s?nodes?|multiple (?:nodes|machines)|(?:two|2|several|more) (?:nodes|machines)|across (?:nodes|machines))\b|(?:多机|多节点|两台|2台|两个节点|跨机|跨节点)[^。\n]{0,20}(?:卡住|卡死|卡在|报错|失败|不行|超时|挂)|`+
		// "This does not happen on a single node setup but does on a
		// multi-node setup" (hkust-nlp/simpleRL-reason#56).
		`\b(?:happens?|occurs?|does)\s(?:only\s)?(?:on|with|in|when using)\s(?:an?\s|the\s)?multi-?\s?(?:nodes?|machines?|hosts?)\b`)
	reInitLog = pattern("initLog", `init_distributed\] |\b[Ii]nitializing (?:ddp|distributed): GLOBAL_RANK|Initializing TorchBackend in DeepSpeed|store_based_barrier_key|Waiting in store based barrier|Rendezvous'ing worker group`)
	// The whole machine losing power under load, said in words: it
	// reboots, powers off, goes to a black or blue screen, or Windows logs
	// Kernel-Power. With several GPUs drawing their peaks at once, the
	// power supply or a cable trips; a reboot said as a remedy ("without
	// restarting", "after a reboot it works") is not it.
	reHostReset = pattern("hostReset", `(?i)\b(?:pc|computer|machine|system|server|host|workstation|rig|box)\s(?:\w{1,16}\s){0,2}(?:reboots|rebooted|restarts|restarted|(?:shuts|shut|shutting) (?:down|off)|powers (?:off|down)|powered (?:off|down)|turns off|turned off|crashes|crashed)\b|`+
		// What keeps happening, and a program that takes the machine down
		// with it: "the system keeps crashing and restarting", "the miner
		// keeps crashing both rigs" (CryptoGraphics/VerthashMiner#7).
		`\b(?:pc|computer|machine|system|server|host|workstation|rig|box)\s(?:\w{1,16}\s){0,2}(?:keeps|kept)\s(?:on\s)?(?:crashing|rebooting|restarting|shutting (?:down|off)|powering (?:off|down)|turning off)\b|`+
		`\bcrash(?:es|ed|ing)?\s(?:(?:both|the|my|our|all|whole|entire)\s){1,2}(?:rigs?|pcs?|computers?|machines?|systems?|servers?|hosts?|workstations?)\b|`+
		// "the system will reboot before completing the test", "The system
		// will crash and reboot" (wilicc/gpu-burn#147).
		`\b(?:pc|computer|machine|system|server|host|workstation|rig|box)\s(?:will|would|may|might|then|just|always)\s(?:\w{1,16}\s)?(?:reboot|restart|crash|shut (?:down|off)|power (?:off|down)|turn off)\b|\b(?:instant|sudden|random|immediate|hard)\s(?:\w{1,12}\s)?(?:reboots?|restarts?|power[- ]?offs?|shutdowns?|power loss)\b|\b(?:causes|caused|causing|triggers|triggered|leads to|led to)\s(?:an?\s|the\s)?(?:(?:system|machine|computer|pc|server|host|whole)\s)?(?:reboots?|shutdowns?|power[- ]?offs?)\b|\bblack screen\b|\bblue screens?\b|\bBSOD\b|\bKernel-Power\b|黑屏|蓝屏|(?:电脑|机器|主机|服务器|系统)[^。\n]{0,10}(?:重启|断电|关机)|`+
		// A machine that locks up whole, so that only its power switch
		// brings it back, is the same witness: "it's been locking up hard
		// about once a day", "power button does nothing"
		// (convergence.ninja, a four-GPU workstation), "system hard
		// freeze" (vllm-project/vllm#14628).
		`\block(?:s|ed|ing)? up hard\b|\bhard[- ]?(?:lock(?:s|ed|ups?)?|freez(?:es?|ing))\b|\b(?:pc|computer|machine|system|workstation|rig|box)\s(?:\w{1,16}\s){0,2}(?:freezes|froze|frozen|locks up|locked up)\b|\bpower button does nothing\b|死机`)
	reHostResetNot = pattern("hostResetNot", `(?i)(?:\bno|\bnot|\bwithout|\bnever|n't)\s(?:\w{1,12}\s){0,2}(?:reboot|restart|shut|power|black screen|blue screen|bsod|crash)`)
	// A riser or an extension cable between a GPU and its slot, said: a
	// long or cheap one attenuates the signal, so a PCIe 4.0 link throws
	// AER errors, trains narrower or slower, or fails to come up, where
	// the same cards work at PCIe 3.0 or in the slot itself (a 7x RTX 4090
	// build log, mov-axbx.com's WOPR risers; a WRX80 board with six 3090s,
	// forum.level1techs.com 190742).
	reRiser = pattern("riser", `(?i)\brisers?\b|\bpci-?e\s?(?:[345]\.0\s|gen\s?[345]\s)?(?:extension|extender)s?(?:\s(?:cables?|ribbons?))?\b|(?:显卡|PCIe|PCI-E)\s?(?:延长线|转接线)`)
	// A GPU said to be lost, to have fallen off the bus or to have gone from
	// the machine: "there is a message of GPU being lost. There no info via
	// nvidia-smi" (Acellera/htmd#836, a faulty card of four), "one gpu is
	// lost during the training" (learning-at-home/hivemind#509), "the node
	// lost a GPU", "one of the 8 GPUs disappears from nvidia-smi", "掉卡".
	// The card stopped answering on PCIe: what Xid 79 logs, said in words;
	// the driver's and NVML's own lines are read by their entries.
	reGPULost    = pattern("gpuLost", `(?i)\b(?:gpus?|cards?|devices?)\s(?:#?\d{1,2}\s)?(?:is|was|were|are|being|got|gets|has been|had been|have been)\s(?:\w{1,12}\s)?lost\b|\b(?:fell|fallen|falls|fall|falling)\s(?:off|out of)\s(?:the\s)?(?:pci-?e?\s)?bus\b|\b(?:gpus?|cards?)\s(?:#?\d{1,2}\s)?(?:(?:then|suddenly|just|randomly|sometimes|eventually|completely|simply|also|has|had|have)\s){0,2}(?:disappear(?:s|ed|ing)?|vanish(?:es|ed|ing)?|(?:goes|went|gone) missing|drops? out|dropped out|drops? off|dropped off)\b|\blost\s(?:a|one|two|the|its|their|his|her)\s(?:of\s(?:its|the|my|our|their)\s)?(?:\w{1,12}\s)?(?:gpus?|cards?)\b|掉卡|(?:显卡|gpu|卡)(?:突然|直接|就)?(?:掉了|消失|丢失|不见了)`)
	reGPULostNot = pattern("gpuLostNot", `(?i)(?:\bnot|\bnever|\bno|n't|\bwithout)\s(?:\w{1,12}\s){0,2}(?:lost|fall|fell|fallen|disappear|vanish|drop)`)
	// GPU memory said to run out, in words: "finetuned with 2 card A00 and
	// got error CUDA OOM" (zhangfaen/finetune-Qwen2-VL#19), "it gives a OOM
	// error" (Tencent-Hunyuan/HunyuanVideo-I2V#41), "causing an out of
	// memory issue" (triton-inference-server/server#7255), "显存不足". The
	// error line itself is its entry's; a denial ("not running out of
	// memory", "to prevent oom", "no panic/oops/OOM"), the host's memory
	// ("CPU OOM", "unified-memory OOM", a container's memory limit
	// "causing a OOM issue", awslabs/awsome-distributed-ai#312) and the
	// kernel's OOM killer (or a watchdog named "anti-oom") are none.
	reOOMSaid = pattern("oomSaid", `(?i)(?:^|[^\w-])(?:oom(?:'?ing|s)?|out[ -]of[ -](?:gpu[ -]|device[ -]|cuda[ -]|video[ -])?memory)\b|显存不足|显存不够|爆显存|显存溢出|显存爆了|`+
		// Or that it is not enough, of the GPU's memory by name: "cuda
		// memory not enough" on eight RTX 3090 (facebookresearch/DiT#22);
		// "not enough memory" alone may be the host's, and "the GPU is not
		// enough" may count the GPUs.
		`\b(?:(?:gpu|cuda|video|graphics)[ -]?memory|vram)\s(?:is\s|was\s)?(?:not\senough|insufficient)\b|\b(?:not\senough|insufficient)\s(?:gpu|cuda|video|graphics)[ -]?memory\b|\b(?:not\senough|insufficient|out\sof)\svram\b`)
	reOOMNot   = pattern("oomNot", `(?i)(?:\bnot|\bnever|\bno|n't|\bwithout|\bprevent\w{0,3}|\bavoid\w{0,3}|\bcpu|\bhost|\bram|\bsystem|\bunified[- ]memory|\bswap)[\s/,]{1,3}(?:[\w']{1,12}[\s/,]{1,3}){0,3}(?:oom|out[ -]of[ -]memory)|\bcontainers?\b.{0,60}\b(?:oom|out[ -]of[ -]memory)|\boom[-_ ]?kill|\bout[ -]of[ -](?:host|cpu|system)[ -]memory|没有(?:出现)?(?:显存不足|爆显存)`)
	reRiserNot = pattern("riserNot", `(?i)(?:\bno|\bwithout|\bnot using|\bnever used|n't use)\s(?:\w{1,12}\s)?(?:risers?|extension|extender)`)
	// Several GPUs named on the line that says so ("with both cards
	// inserted", "two GPUs"), or a data-parallel wrapper, which runs on
	// several ("with DataParallel the machine constantly crash",
	// pytorch/pytorch#2603).
	reBothGPUs = pattern("bothGPUs", `(?i)\bboth\s(?:\w{1,12}\s)?(?:gpus?|cards|graphics cards)\b|\b(?:two|2|three|3|four|4|multiple|several)\s(?:\w{1,12}\s)?(?:gpus?|cards|graphics cards)\b|两张卡|双卡|多卡|\b(?:distributed)?dataparallel\b|\bmirroredstrategy\b`)
	// Several GPUs named on any line, in words or as a count of one model:
	// "two GPUs", "3 graphics cards", "two nvidia3090", "RTX2080ti x 2",
	// "双卡" (perslev/MultiPlanarUNet#30, AlexeyAB/darknet#2731,
	// open-mmlab/mmselfsup#568). Every match holds one of severalWords.
	reSeveralGPUs = pattern("severalGPUs", `\b(?:[Bb]oth|BOTH|[Tt]wo|TWO|[Tt]hree|THREE|[Ff]our|FOUR|[Ff]ive|FIVE|[Ss]ix|SIX|[Ss]even|SEVEN|[Ee]ight|EIGHT|[Mm]ultiple|MULTIPLE|[Ss]everal|SEVERAL|[Dd]ual|DUAL) (?:\w{1,12} ){0,2}(?:(?:GPUs|gpus|Gpus|GPUS|cards|Cards|graphics cards|Graphics Cards)|(?:(?:NVIDIA|[Nn]vidia|RTX|[Rr]tx|GeForce|GEFORCE|[Gg]eforce) ?)?[1-5]0[6-9]0(?: ?(?:[Tt]i|TI))?s?)\b|\b[2-8] (?:GPUs|gpus|Gpus|GPUS|cards|Cards|graphics cards|Graphics Cards)\b|[1-5]0[6-9]0(?: ?(?:[Tt]i|TI))? [xX×] ?[2-8]\b|[两双多二三四五六七八2-8] ?张?卡|`+
		// "4x Blackwell Max Q GPUs" (convergence.ninja), "8x H100 GPUs".
		`\b[2-8] ?[xX×] (?:\w{1,12} ){0,3}(?:GPUs|gpus|Gpus|GPUS|cards|Cards)\b`)
	reDistCall = pattern("distCall", `init_process_group|all_?reduce|barrier\(|torch[/.]distributed|\bdist\.|deepspeed`)
	// Where the GPUs are, said in words: MIG slices by name or profile
	// ("4 MIG instances (1g.10gb)"), a virtual machine or GPU passthrough.
	reMIGProse = pattern("migProse", `\bMIG[- ](?:instances?|slices?|partitions?|devices?|enabled)\b|\b[1-7]g\.\d{1,3}gb\b`)
	reVMProse  = pattern("vmProse", `(?i)\bvirtual machines?\b|\bkvm (?:guest|virtual)|\bqemu\b|\bproxmox\b|\besxi\b|\bhypervisor\b|\b(?:gpu|pcie?|device) pass-?through|\bpass-?through(?:ed)? (?:of )?(?:the )?(?:gpus?|devices?|cards?)\b|\b(?:in|inside|into|on|each|my|the|a|every|\d{1,3}) (?:the |a |my |each )?vms?\b`)
	// "no MIG", "MIG disabled", "not in a VM": the place denied.
	rePlaceNot = pattern("placeNot", `(?i)\b(?:no|not|without|non|outside)\b.{0,24}(?:MIG|\bvms?\b|virtual machine|passthrough)|MIG (?:mode )?(?:is )?disabled`)
	// GPUs split over several containers, said in words ("two different
	// containers each use different GPU", "two docker with each holding two
	// cards", "among different containers"): CUDA IPC, and so NVLink and
	// PCIe P2P, needs the peer GPU visible and a shared IPC namespace, which
	// separate containers lack by default. One container alone is not it.
	reContainers   = pattern("containers", `(?i)\b(?:two|2|three|four|different|multiple|several|separate|other|each|both|per)\s(?:\w{1,20}\s){0,2}(?:dockers?|containers|pods)\b|\b(?:among|between|across)\s(?:\w{1,20}\s){0,2}(?:dockers?|containers?|pods?)\b|\b(?:containers|pods|dockers)\s(?:\w{1,20}\s){0,3}(?:each|different|separate|isolated)\b`)
	reContainerNot = pattern("containerNot", `(?i)\b(?:no|not|without|outside)\s(?:\w{1,20}\s){0,2}(?:dockers?|containers?|pods?)\b`)
	reP2PIntent    = pattern("p2pIntent", `(?i)nvlink|\bp2p\b|peer[- ]to[- ]peer|\bcuda[ _]?ipc|cudaIpc|\bipcs?\b`)
	// An AMD host CPU, named in words or by lscpu: AMD platforms (EPYC,
	// Ryzen, Threadripper) commonly boot with the IOMMU translating, which
	// drops or stalls PCIe P2P between GPUs.
	reAMDCPU = pattern("amdCPU", `(?i)\bepyc\b|\bryzen\b|\bthreadripper\b|\bAuthenticAMD\b|\bAMD (?:cpu|processor|host|platform|server|motherboard|system)s?\b`)
	reAMDNot = pattern("amdNot", `(?i)\b(?:no|not|non)[- ](?:an?\s)?(?:amd|epyc|ryzen|threadripper)\b`)
	// A host of several CPU sockets or NUMA nodes, said in words ("two
	// sockets", "QPI/UPI", "NPS4", "different NUMA nodes") or by lscpu: GPUs
	// under different sockets reach each other through the CPUs'
	// interconnect, which carries PCIe peer traffic slowly on most platforms.
	// nvidia-smi topo's legend names QPI/UPI and NUMA nodes on every machine
	// ("Connection traversing"), so it is not read.
	reSockets    = pattern("sockets", `(?i)\b(?:two|2|dual|multiple|both|different|separate|across|between|cross)[- ](?:cpu[- ])?(?:sockets|numa[- ]nodes|numa[- ]domains)\b|\b(?:dual|two|2)[- ](?:socket|cpu|processor)s?\b|\bcross[- ](?:socket|numa|cpu)\b|\b(?:QPI|UPI)\b|\bNPS ?=? ?[248]\b|\b(?:two|2|dual)\s(?:[\w@.()-]{1,24}\s){0,4}(?:cpus|processors|sockets)\b|\bnuma nodes\b|^Socket\(s\):\s{1,40}[2-8]\b|^NUMA node\(s\):\s{1,40}[2-8]\b`)
	reSocketsNot = pattern("socketsNot", `(?i)\bsingle[- ](?:cpu[- ])?socket\b|\b(?:not|no|without)\s(?:\w{1,20}\s){0,2}(?:sockets|numa|qpi|upi)\b|Connection traversing`)
	// Communication said to be slow: "allreduces are slightly _slower_",
	// "performance downgrade", "low bandwidth", "非常慢", or where the
	// bottleneck is ("瓶颈都卡在双卡信息交换上", weicj/vLLM-2080Ti-Definitive#140:
	// 卡在 there places the bottleneck, it is no hang), with what is slow
	// on the same line.
	reSlow      = pattern("slow", `(?i)(?:\b|_)slow(?:er|ly|s|ness)?(?:\b|_)|\bbottleneck(?:ed)?\s(?:is|was|are|were|lies|seems|appears)\b|\bis the bottleneck\b|瓶颈[^。\n]{0,4}(?:卡在|在于|是)|\b(?:low|lower|poor|bad|degraded|terrible|horrible)\s(?:\w{1,20}\s)?(?:bandwidth|performance|throughput|speed|busbw)\b|\b(?:performance|bandwidth|throughput|speed)\s(?:\w{1,20}\s){0,2}(?:downgrade|degradation|drops?|regression|low|lower|poor|bad)\b|性能(?:下降|很差|差)|速度(?:慢|很慢)|带宽(?:低|很低)|(?:非常|很|特别|太|极其|十分|比较|较)慢|变慢|慢(?:了|很多|得多)`)
	reSlowWhere = pattern("slowWhere", `(?i)all_?reduce|all-reduce|all_?gather|reduce_?scatter|\bnccl|collective|\bp2p\b|peer[- ]to[- ]peer|nvlink|\bpcie|bandwidth|busbw|algbw|_perf\b|communicat|\bgpus?\b|multi-?gpu|tensor.parallel|通信|带宽|信息交换`)
	// What the slow line says is slow: the communication or the path
	// (all_reduce, bandwidth, P2P, a copy), or the run (training, an
	// iteration, tokens per second, inference). A run said to be slow on
	// several GPUs, with no word of what carries its data, is in the
	// reports behind the entries several GPUs no faster than one, not a
	// slow path (litgpt#1472, #607, yolov5#1933, FastSpeech#11).
	reSlowComm = pattern("slowComm", `(?i)all_?reduce|all-reduce|all_?gather|reduce_?scatter|\bnccl|collective|\bp2p\b|peer[- ]to[- ]peer|nvlink|\bpcie|bandwidth|busbw|algbw|_perf\b|communicat|transfer|\bcop(?:y|ies|ying)\b|memcpy|gb/s|通信|带宽|传输`)
	reSlowRun  = pattern("slowRun", `(?i)\btrain(?:ing|s)?\b|\binference\b|\biterations?\b|\biters?\b|\bepochs?\b|\bsteps?\b|\btokens?\s?(?:/\s?s|per)|\bit/s\b|\bs/it\b|\bgenerat(?:ion|ing|e)\b|\bfine-?tun\w{0,4}\b|训练|推理|迭代|生成`)
	reSlowNot  = pattern("slowNot", `(?i)(?:\bnot|\bnever|\bno longer|n't|\bno)\s{1,4}(?:\w{1,20}\s{1,4})?(?:slow|low|poor|bad|degrad|performance (?:drop|degradation|regression))|不(?:算|是|太|会)?慢`)
	// /dev/shm too small for NCCL's or UCX's shared memory: a Bus error
	// (SIGBUS, signal 7; the shell's "Bus error (core dumped)" when the
	// process it ran died of it) beside NCCL or UCX frames or NCCL's
	// channel lines, UCX's shared-memory FIFO not allocated, /dev/shm out
	// of space, or docker's 64 MB default.
	reBusError = pattern("busError", `Caught signal 7 \(Bus error|received signal SIGBUS|Signal: Bus error \(7\)|\bBus error \(signal 7\)|\(exitcode: -7\)|\bexitcode\s{0,2}:\s{0,2}-7\b|^Bus error \(core dumped\)|Fatal Python error: Bus error`)
	reSHMLib   = pattern("shmLib", `\bnccl(?:ShmOpen|GroupEnd|ProxyService)\(|libnccl\.so|\bxla_extension\.so|\binterpreters/pxla\.py\b|\bu(?:cp|ct|cs)_\w{2,40}\(`)
	// A container started for several GPUs with Docker's default /dev/shm
	// (64 MB), which NCCL's documentation says to raise (--shm-size=1g):
	// one `docker run` line with GPUs and a launch of several GPUs or
	// ranks, and no --shm-size, --ipc=host or /dev/shm mount. A line that
	// goes on (a trailing backslash) may hold them on the next one.
	reDockerGPURun = pattern("dockerGPURun", `\b(?:nvidia-)?docker\s(?:container\s)?run\b.*(?:--gpus\b|--runtime[= ]nvidia\b)|\bnvidia-docker\srun\b`)
	reDockerShm    = pattern("dockerShm", `--shm-size\b|--ipc[= ]host\b|/dev/shm\b`)
	reDockerMulti  = pattern("dockerMulti", `--num[-_]shard[= ](?:[2-9]|\d\d)\b|--tensor[-_]parallel[-_]size[= ](?:[2-9]|\d\d)\b|--tp(?:[-_]size)?[= ](?:[2-9]|\d\d)\b|--nproc[-_]per[-_]node[= ](?:[2-9]|\d\d)\b|\b(?:torchrun|deepspeed|mpirun|horovodrun)\b`)
	reSHMSmall     = pattern("shmSmall", `mm_iface failed to allocate receive FIFO|No space left on device.{0,80}/dev/shm|/dev/shm.{0,80}No space left on device|/dev/shm\b.{0,60}\b64\s?M(?:i?B)?\b|\b64\s?M(?:i?B)?\b.{0,60}/dev/shm|"ShmSize":\s?67108864\b|[Dd]efault\s(?:\w{1,20}\s){0,3}(?:shm|shared memory)\b.{0,40}\b64\s?M|\b64\s?M(?:i?B)?\s(?:\w{1,20}\s){0,3}(?:of\s)?(?:shm|shared memory)\b`)
	// No NVLS channels, said in words ("nccl info is 0 nvls channel. Is
	// there something wrong?"): NCCL's own line says it on every machine
	// without NVSwitch, so only a line outside NCCL's counts.
	reNVLSZero = pattern("nvlsZero", `(?i)\b(?:0|zero|no)\s(?:nvls|nvlink sharp)\s(?:channels?|algorithms?)\b`)
	// systemctl status of Fabric Manager: the header, then Active: failed
	// or inactive (dead) a few lines below; or the failed start itself.
	reFMHeader = pattern("fmHeader", `\bnvidia-fabricmanager\.service - `)
	reFMActive = pattern("fmActive", `^Active: (?:failed|inactive \(dead\))`)
	reFMExec   = pattern("fmExec", `ExecStart=\S{0,80}nv-fabricmanager\b.{0,200}\(code=exited, status=[1-9]\d{0,2}/FAILURE\)`)
	// Native Windows, said in words or shown by its paths ("Platform:
	// Windows-10", "on win32", "C:\Users\...", "set CUDA_PATH=C:\Program
	// Files\...", and D:\a\ of GitHub's Windows runners in the file names a
	// binary built there prints): PyTorch for Windows has
	// no NCCL, so a distributed launch there has no GPU peer path at all.
	// WSL said anywhere is Linux, not this.
	reWindows    = pattern("windows", `(?i)\bPlatform:\s{0,4}Windows-\d|\bwin32\b|\b(?:on|in|under|using|native|with|for)\s(?:native\s|a\s)?Windows\b|\bWindows\s?(?:10|11|Server)\b|\bwin1[01]\b|(?:^|[\s"'(=`+"`"+`一-鿿])[A-Z]:\\(?:Users|Program|anaconda|miniconda|Python|actions-runner|Tools|a\\)|(?:^|[\s"'(一-鿿])[A-Z]:\\[^\s"'<>|]{0,120}?\\(?:site-packages|Scripts|venv)\\|windows?\s?(?:系统|上|下|环境|多卡|平台|电脑)|(?:在|用|支持|基于)\s?windows`)
	reWindowsNot = pattern("windowsNot", `(?i)\b(?:not|no|non|without)\s(?:on\s|in\s|under\s|using\s)?(?:native\s)?windows\b|\bwsl`)
	// A distributed or multi-GPU launch said in words or commands, besides
	// the torch.distributed calls reDistCall reads.
	// A bandwidth figure set against the link's headline ("wire bw of 480
	// GB/s ... the NVLink bw is 900 GB/s", "algbw is about 250GB/S. But NV
	// officials claim ... 450GB/S", "lower than expect (900GB/s)"): a second
	// figure or a word of the headline on the same line, and somewhere in the
	// paste what carries it (NVLink, NVSwitch) or the tool that measured it.
	// The data sheet adds both directions at line rate, so such questions are
	// mostly answered by what a healthy link gives.
	reBWFigure  = pattern("bwFigure", `(?i)\b\d{2,4}(?:\.\d{1,2})?\s?GB/s\b.{0,200}(?:\b\d{2,4}(?:\.\d{1,2})?\s?GB/s\b|\b(?:theoretical|peak|specs?|data.?sheet|max(?:imum)?|expect(?:ed)?|instead of|officials?|claim(?:s|ed)?|line rate|wire|nvlink\d?|nvswitch)\b)|\b(?:theoretical|peak|specs?|data.?sheet|max(?:imum)?|expect(?:ed)?|instead of|officials?|claim(?:s|ed)?|line rate|wire|nvlink\d?|nvswitch)\b.{0,200}\b\d{2,4}(?:\.\d{1,2})?\s?GB/s\b`)
	reBWCarrier = pattern("bwCarrier", `(?i)nvlink|nvswitch|\bnvls\b|\bsharp\b|_perf\b|nccl-tests|\bbusbw\b|\balgbw\b|p2pBandwidthLatencyTest|nvbandwidth|\ball[ _-]?reduce\b`)
	// A distributed or multi-GPU launch, for the Windows reader. Chinese
	// says the cards: "两张显卡", "多张显卡", "双卡", "2个GPU"
	// (PaddlePaddle/Paddle#57743: a P40 and a P100 under Windows).
	reWinLaunch = pattern("winLaunch", `(?i)\bdistributed\b|\btorchrun\b|\bddp\b|\bmulti-?\s?gpus?\b|\bmultiple[- ]gpus\b|\bnproc[_-]per[_-]node\b|CUDA_VISIBLE_DEVICES=\d,\d|accelerate launch|--tp\s?[2-9]\b|--tensor[-_]parallel[-_]size[= ]\s?[2-9]\b|多卡|分布式|双卡|[多两2][张块个]显卡|[多两2]个\s?gpus?\b`)
	// ACS said to be on ("ACS is enabled on the PLX switches", "bridges that
	// had ACS enabled", "ACS redirect is enabled on: 0000:0d:01.0",
	// "IOMMU/ACS enabled in BIOS"), and the IOMMU said to be on ("IOMMUv2 is
	// enabled in the BIOS", "VT-d enabled", "with IOMMU on"). "ACS on" and
	// "IOMMU on" count only at a clause's end: "ACS on the switches" names
	// where, not whether. A denial on the line ("disabled", "no", "not",
	// "without", "turned off") rules the line out; "disable ACS" asks for a
	// fix and is no denial, but says nothing of the state either.
	reACSOn       = pattern("acsOn", `(?i)\bACS\b(?:\s(?:P2P\s)?(?:redirect(?:ion)?|control|capability|feature)s?)?\s(?:is\s|was\s|are\s|were\s|still\s|also\s|being\s|seems\s|got\s){0,2}(?:enabled|turned on|active)\b|\bACS (?:is |was )?on(?:$|[.,;:)!])`)
	reACSNot      = pattern("acsNot", `(?i)\b(?:no|not|never|without|disabled|turned off|switched off)\s(?:\w{1,20}\s){0,3}ACS\b|\bACS\s(?:\w{1,20}\s){0,3}(?:not|never|disabled|off)\b|\bACS\w{0,4} (?:is |are )?(?:off|disabled)\b|n't\s(?:\w{1,20}\s){0,2}(?:enabled?\s)?ACS\b`)
	reIOMMUOnSaid = pattern("iommuSaid", `(?i)\b(?:IOMMU(?:v2)?|VT-d|AMD-Vi|AMD IOMMU|Intel VT-d)(?:/ACS)?\s(?:\(\w{1,30}\)\s)?(?:support\s|mode\s|feature\s)?(?:is\s|was\s|are\s|still\s|also\s|being\s|got\s){0,2}(?:enabled|turned on|active)\b|\b(?:IOMMU|VT-d|AMD-Vi)\s(?:is\s|was\s)?on(?:$|[.,;:)!])|\b(?:IOMMU|VT-d)\s?[:=]\s?(?:enabled|on)\b|\bwith (?:the )?(?:IOMMU|VT-d) on\b`)
	reIOMMUNot    = pattern("iommuNot", `(?i)\b(?:no|not|never|without|disabled|turned off|switched off)\s(?:\w{1,20}\s){0,3}(?:IOMMU|VT-d|AMD-Vi)|\b(?:IOMMU|VT-d|AMD-Vi)\w{0,2}\s(?:\w{1,20}\s){0,3}(?:not|never|disabled|off)\b|n't\s(?:\w{1,20}\s){0,2}(?:IOMMU|VT-d)`)
	// A kernel command line as GRUB's configuration writes it
	// (GRUB_CMDLINE_LINUX="quiet intel_iommu=on"): the value in quotes,
	// which the kernel-line reader (paste.go) does not split at the quote.
	// intel_iommu=on, amd_iommu=on and iommu=on turn translation on;
	// iommu=pt, iommu=soft and an =off are the fixes and rule the line out.
	reGrubIOMMU = pattern("grubIOMMU", `\bGRUB_CMDLINE_LINUX(?:_DEFAULT)?\s{0,2}=\s{0,2}["']?[^"']{0,400}`)
	reMIGNamed  = pattern("migNamed", `\bMIG\b`)
	// lscpu of a host with one socket: no pair of GPUs crosses sockets.
	// A slow run's own line may name the path (nvidia-smi topo's PXB, PHB,
	// PIX, SYS, NV#) or say it is a training's throughput (samples/sec,
	// it/s): the first is the topology shown, the second a rate of the
	// whole step, not of communication between GPUs.
	reSlowTopo  = pattern("slowTopo", `\b(?:PXB|PHB|PIX|SYS|NV[1-9]\d?)\b`)
	reSlowRate  = pattern("slowRate", `(?i)\b(?:samples?|images?|imgs?|it|iters?|tokens?|steps?)\s?(?:/\s?s(?:ec)?\b|per sec)`)
	reOneSocket = pattern("oneSocket", `^Socket\(s\):\s{1,40}1$`)
	reGrubArg   = pattern("grubArg", `(?:^|[\s"'=])(intel_iommu|amd_iommu|iommu|iommu\.passthrough)=(\w{1,20})`)
)

// migWords and vmWords are the words, as written, one of which every match
// of reMIGProse and reVMProse holds.
var (
	migWords = []string{"MIG", "g.1", "g.2", "g.3", "g.4", "g.5", "g.6", "g.7", "g.8", "g.9"}
	vmWords  = []string{"virtual machine", "Virtual machine", "Virtual Machine", "VIRTUAL MACHINE", "KVM ", "kvm ", "Kvm ", "QEMU", "qemu", "Qemu", "roxmox", "ROXMOX",
		"ESXi", "esxi", "ESXI", "ypervisor", "YPERVISOR", "ass-through", "assthrough", "ASSTHROUGH", "ASS-THROUGH", " vm", " VM", " Vm"}
)

// containerWords, p2pIntentWords and amdWords are the words, as written,
// one of which every match of reContainers, reP2PIntent and reAMDCPU holds
// ("docker" is the container reader's own trigger).
var (
	containerWords = []string{"docker", "Docker", "DOCKER", "container", "Container", "CONTAINER", "pods", "Pods", "PODS"}
	p2pIntentWords = []string{"nvlink", "NVLink", "NVLINK", "NvLink", "Nvlink", "p2p", "P2P", "eer-to-peer", "eer to peer", "EER-TO-PEER", "EER TO PEER", "ipc", "IPC", "Ipc"}
	amdWords       = []string{"AMD ", "amd ", "Amd ", "epyc", "EPYC", "Epyc", "ryzen", "Ryzen", "RYZEN", "threadripper", "Threadripper", "ThreadRipper", "THREADRIPPER", "AuthenticAMD"}
)

// socketWords, slowWords, shmWords, fmWords and nvlsWords are the words, as
// written, that a line must hold for those readers to read it. Each is rare
// in NCCL's own lines, which the prefilter reads by the million: "socket" in
// lower case (NCCL writes NET/Socket), lscpu's "t(s):", a frame's name
// without its "nccl" (ncclCommInitRank is in every log), the words of being
// slow ("slower", "low ", "drop") rather than of what is slow
// ("performance"). A match of reSockets or reSlow that holds none ("two
// EPYC CPUs", "bandwidth is low" at a line's end) is not read; every match
// of the shm, Fabric Manager and NVLS patterns holds one.
var (
	socketWords = []string{"socket", "SOCKET", "t(s):", "NUMA", "numa", "Numa", "QPI", "UPI", "NPS"}
	slowWords   = []string{"slow", "Slow", "SLOW", "low ", "Low ", "LOW ", "low?", "low.", "low,", "lower", "Lower", "LOWER", "poor", "Poor", "POOR", "bad ", "Bad ", "BAD ",
		"degrad", "Degrad", "DEGRAD", "terrible", "Terrible", "horrible", "Horrible", "downgrade", "Downgrade", "regression", "Regression", "drop", "Drop", "DROP", "性能", "速度", "带宽", "慢", "bottleneck", "瓶颈"}
	shmWords = []string{"signal 7", "SIGBUS", "Bus error", "exitcode", "ShmOpen(", "GroupEnd(", "ProxyService(", "bnccl.so", "xla_extension.so", "pxla.py",
		"ucp_", "uct_", "ucs_", "mm_iface", "/dev/shm", "ShmSize", "64M", "64 M"}
	fmWords   = []string{"nvidia-fabricmanager.service - ", "Active: ", "nv-fabricmanager"}
	nvlsWords = []string{"nvls", "NVLS", "Nvls", "NVLink SHARP", "nvlink sharp", "NVLink Sharp"}
)

// windowsWords and winLaunchWords are the words, as written, one of which
// every match of reWindows (or WSL said) and reWinLaunch holds.
var (
	windowsWords   = []string{"Window", "window", "WINDOW", "win32", "Win32", "WIN32", "win1", "Win1", "WIN1", ":\\", "WSL", "wsl", "Wsl"}
	winLaunchWords = []string{"distributed", "Distributed", "torchrun", "ddp", "DDP", "Ddp", "multi-gpu", "multi-GPU", "Multi-GPU", "multi gpu", "multi GPU", "Multi GPU",
		"multigpu", "MultiGPU", "multiGPU", "multiGpu", "Multigpu", "MULTIGPU", "Multi-gpu", "Multi-Gpu", "multi-Gpu", "MULTI-GPU",
		"ultiple GPUs", "ultiple GPUS", "ultiple gpus", "ultiple-gpus", "ultiple-GPUs", "ultiple Gpus", "Multi gpu", "multi Gpu", "Multi Gpu", "MULTI GPU", "nproc", "NPROC", "CUDA_VISIBLE_DEVICES=", "cuda_visible_devices=", "accelerate launch", "--tp", "tensor-parallel-size", "tensor_parallel_size", "多卡", "分布式", "双卡", "显卡", "个GPU", "个gpu", "个 GPU", "个 gpu", "个Gpu", "个 Gpu"}
)

// bwFigureWords and bwCarrierWords are the words, as written, one of which
// every match of reBWFigure and reBWCarrier holds.
var (
	bwFigureWords  = []string{"GB/s", "GB/S", "gb/s", "GBs/"}
	bwCarrierWords = []string{"nvlink", "NVLink", "NVLINK", "NvLink", "Nvlink", "NVlink", "nvswitch", "NVSwitch", "NVSWITCH", "NvSwitch", "Nvswitch", "nvls", "NVLS", "sharp", "SHARP", "Sharp", "SHArP",
		"_perf", "nccl-tests", "busbw", "BusBw", "busBw", "BUSBW", "algbw", "AlgBw", "algBw", "p2pBandwidthLatencyTest", "nvbandwidth", "allreduce", "all_reduce", "all reduce", "All reduce", "all-reduce", "All-Reduce", "All Reduce", "All-reduce", "AllReduce", "Allreduce", "ALLREDUCE"}
)

// acsWords and iommuWords are the words, as written, one of which every
// match of reACSOn, reIOMMUOnSaid and reGrubIOMMU holds. NCCL's own lines
// name neither.
var (
	acsWords   = []string{"ACS", "acs ", "Acs "}
	iommuWords = []string{"IOMMU", "iommu", "Iommu", "VT-d", "VT-D", "vt-d", "AMD-Vi", "GRUB_CMDLINE_LINUX"}
)

// hangWords are the words, as written, that a line saying a run hangs
// holds one of (reHangWord, case folded): the prefilter's triggers. NCCL's
// own lines ("Threads per block") are never read for them, nor "BLOCK" in
// capitals, which PyTorch prints with every CUDA error
// (CUDA_LAUNCH_BLOCKING=1) and a person never writes of a hang.
var hangWords = []string{"hang", "Hang", "HANG", "hung", "Hung", "stuck", "Stuck", "STUCK", "freez", "Freez", "FREEZ", "froze", "Froze", "deadlock", "Deadlock",
	"卡住", "卡死", "卡在", "卡着不动", "挂起", "死锁",
	"progress", "Progress", "PROGRESS", "forever", "Forever", "FOREVER", "indefinitely", "Indefinitely", "infinitely", "never", "Never", "NEVER",
	"block", "Block", "nothing", "Nothing", "NOTHING", "out after", "Out after", "OUT AFTER", "stall", "Stall", "STALL",
	"suspended", "be killed", "be stopped", "be interrupted",
	"反应", "不动了", "一直等待", "无响应", "没有进展", "阻塞", "停滞", "卡顿", "卡主", "停留在"}

// wrongWords are the words, as written, one of which every match of
// reWrongOut holds.
var wrongWords = []string{"wrong", "Wrong", "WRONG", "incorrect", "Incorrect", "corrupt", "Corrupt", "garbage", "Garbage", "garbled", "Garbled",
	"gibberish", "Gibberish", "nonsense", "Nonsense", "bogus", "Bogus", "zeros", "Zeros", "ZEROS", "instead of", "Instead of", "ilent", "zeroed out", "zero tensor", "GGGGGG", "all exclamation", "all !", "!!!!", "ly off", "way off",
	"乱码", "胡言乱语", "错误的", "不对", "错乱", "凌乱", "混乱"}

// introNear is how many lines after a hang that points at what follows
// the call it points at is looked for: a blank line and a fence between.
const introNear = 3

// initWords are the words, as written, one of which every match of
// reInitStage and reInitLog holds.
var initWords = []string{"init", "Init", "INIT", "rendezvous", "Rendezvous", "rdzv", "store based", "store_based", "初始化"}

// reSentenceEnd ends a sentence: what a negation denies is said in its
// own sentence ("Not a graceful crash. Not a kernel panic. A full black
// screen").
var reSentenceEnd = pattern("sentenceEnd", `[.!?;](?:\s+|$)|[。！？；]`)

// saidIn says whether re matches a sentence of s that not does not match.
func saidIn(s string, re, not *lazyRegexp) bool {
	at := 0
	for _, cut := range append(reSentenceEnd.FindAllStringIndex(s, -1), []int{len(s), len(s)}) {
		if c := s[at:cut[1]]; re.MatchString(c) && !not.MatchString(c) {
			return true
		}
		at = cut[1]
	}
	return false
}

// initLogWords are the words one of which every match of reInitLog holds:
// the prefilter's triggers for a line the hang reader does not wake.
var initLogWords = []string{"init_distributed] ", "nitializing ddp: ", "nitializing distributed: ", "Initializing TorchBackend", "store_based_barrier_key", "Waiting in store based barrier", "Rendezvous'ing"}

// hostResetWords are the words, as written, one of which every match of
// reHostReset holds.
var hostResetWords = []string{"reboot", "Reboot", "REBOOT", "restart", "Restart", "shut", "Shut", "power", "Power", "turn", "crash", "Crash",
	"black screen", "Black screen", "Black Screen", "blue screen", "Blue screen", "Blue Screen", "BSOD", "Kernel-Power", "黑屏", "蓝屏", "重启", "断电", "关机",
	// A lockup said, not "lock" or "LOCK" alone: "Comm config Blocking"
	// and "consider passing CUDA_LAUNCH_BLOCKING=1" hold them, and every
	// repetition of the latter would be read in full.
	"ocks up", "ocked up", "ocking up", "ock up", "ockup", "OCKUP", "ard-lock", "ard lock", "ardlock", "ARD-LOCK", "ARD LOCK",
	"ard-freez", "ard freez", "ardfreez", "ARD FREEZ", "reezes", "roze", "ROZE", "死机"}

// closeNear is how far from the words of a small difference, in bytes,
// the results it is said of are looked for: "systems which have slightly
// different configurations" is not said of results a sentence later.
const closeNear = 40

// closeWords are the words, as written, one of which every match of
// reCloseSaid holds.
var closeWords = []string{"light", "LIGHT", "small", "Small", "SMALL", "tiny", "Tiny", "minor", "Minor", "negligible", "Negligible", "minimal", "Minimal", "different", "Different", "不一致", "不一样", "不同",
	"determinis", "Determinis", "bit-exact", "bitwise", "Bitwise", "bit exact", "reproducible", "Reproducible", "md5", "MD5", "Md5",
	"略有", "稍有", "细微", "微小", "轻微", "一些差", "有些差", "一些不同", "有些不同", "少许"}

// divergeWords are the words, as written, one of which every match of
// reRanksDiverge holds.
var divergeWords = []string{"不平衡", "不均衡", "不均匀", "不一致", "不相同", "不同", "empty", "idle", "0%", "0 %", "ero3", "ERO3", "eRO3", "ero-3", "ERO-3", "eRO-3", "ero_3", "eRO_3", "ero 3", "ERO 3", "eRO 3", "tage 3", "tage3", "tage_3", "tage-3", "uneven", "Uneven", "UNEVEN", "different number", "Different number", "different amount", "rank", "Rank", "is_main_process", "layer", "Layer", "LAYER", "empty batch", "Empty batch", "master_only",
	"skip", "Skip", "reach", "loss on", "loss of", "gradient", "never call", "not call", "n't call", "never enter", "not enter", "n't enter", "never join", "not join", "n't join"}

// timeoutSaidWords are the words, as written, one of which every match of
// reTimeoutSaid holds.
var timeoutSaidWords = []string{"30 min", "30min", "30 Min", "thirty min", "三十分钟", "30分钟", "30 分钟", "1800"}

// elsewhereWords are the words, as written, one of which every match of
// reElsewhere holds.
var elsewhereWords = []string{"not change", "n't change", "not respect", "n't respect", "not hono", "n't hono", "defaults to", "default to", "Defaults to", "Default to",
	"占用", "0号", "0 号", "0卡", "0 卡", "0显卡", "0gpu", "0GPU", "0 gpu", "0 GPU", "第一张", "第一块", "第一个", "第0张", "第0块",
	// GPU 0 named where memory or work lands: "on GPU 0", not "GPU 0" alone,
	// which a log prints on many lines.
	"on GPU 0", "on gpu 0", "on Gpu 0", "on GPU0", "on gpu0", "on cuda:0", "on CUDA:0", "on device 0", "on Device 0", "on device0",
	"on the GPU 0", "on the gpu 0", "to cuda:0", "to GPU 0", "to gpu 0", "to device 0", "on the default", "on default",
	"first GPU", "first gpu", "First GPU", "first card", "first device", "other GPU", "other gpu", "other card", "other device", "all GPU", "all gpu", "all card", "all device",
	"every GPU", "every gpu", "every card", "every device", "each GPU", "each gpu", "each card", "each device", "is still", "was still", "is also", "was also"}

// The parts of reFirstOnly: the first GPU named, another one named, and
// the words of working and of failing. A word of working followed by ':' or
// '=' is a tool's field ("copy cuda:0 -> cuda:1 -> ok: 1048576.0"), not
// what someone says of a run.
const (
	firstGPU  = `(?:(?:the\s|my\s)?first\s(?:gpu|card|device)|gpu\s?:?\s?0|cuda:0|device(?:[\s_]?(?:id|index))?` + "`" + `?\s?[=:]?\s?\*{0,2}0)\b`
	otherGPU  = `(?:(?:the\s|my\s)?(?:second|2nd|other|another)\s(?:gpu|card|device)s?|gpu\s?:?\s?[1-9]|cuda:[1-9]|device(?:[\s_]?(?:id|index))?` + "`" + `?\s?[=:]?\s?\*{0,2}[1-9])\b`
	worksWord = `\b(?:works?|worked|working|fine|ok|okay|good|normal(?:ly)?|succeeds?|succeeded|proper output)\b(?:[^:=]|$)`
	failsWord = `\b(?:fails?|failed|failing|errors?|crash(?:es|ed)?|segfaults?|segmentation fault|trouble|(?:does|did)(?:n't| not) work|not working|exceptions?|aborts?|throws?)\b`
	// A device named by any index but 0: "with `device_id` other than 0".
	notDeviceZero = `\bdevice[\s_]?(?:id|index|ordinal)s?` + "`" + `?\s(?:\w{1,12}\s)?other than\s(?:0|zero)\b`
)

// firstOnlyGap is how many lines apart the two halves of reFirstOnly may be
// said: a sentence broken over lines, or a list of what works and what
// does not.
const firstOnlyGap = 3

// maxFirstRead bounds the lines the reader remembers having said nothing:
// a log's repeated lines are few, its distinct ones unbounded.
const maxFirstRead = 256

// firstOnlyWords are the words, as written, one of which every match of
// reFirstOnly, reFirstOK and reOtherFails holds: the first GPU named, or
// another.
var firstOnlyWords = func() []string {
	w := []string{"first GPU", "first gpu", "First GPU", "first card", "first device", "GPU 0", "GPU0", "gpu 0", "gpu0", "Gpu 0", "GPU:0", "gpu:0", "cuda:0", "CUDA:0", "device 0", "Device 0", "DEVICE 0", "device0", "Device0", "device:0", "Device:0", "device: 0", "Device: 0", "device=0", "Device=0", "device =", "Device =", "device **0", "device` 0", "device`=", "device_id", "Device_id", "device id", "Device id", "Device ID", "device ID", "DEVICE_ID", "device index", "Device index", "device_index", "device ordinal", "Device ordinal", "device_ordinal", "device_Id", "deviceid", "cuda: 0", "CUDA: 0", "gpu: 0", "GPU: 0", "Gpu0", "first Gpu", "First gpu", "FIRST GPU", "First card", "First device", "second GPU", "second gpu", "Second GPU", "second card", "second device", "2nd GPU", "2nd gpu", "other GPU", "other gpu", "another GPU", "another gpu", "other card", "other device"}
	// Another GPU by its index: GPU 1 to GPU 7.
	for d := '1'; d <= '7'; d++ {
		for _, f := range []string{"GPU %c", "GPU%c", "gpu %c", "gpu%c", "GPU:%c", "gpu:%c", "cuda:%c", "CUDA:%c", "device %c", "Device %c", "device%c", "device=%c", "device **%c", "device: %c"} {
			w = append(w, fmt.Sprintf(f, d))
		}
	}
	return w
}()

// trainingWords are the words, as written, one of which every match of
// reTraining holds.
var trainingWords = []string{"train", "Train", "TRAIN", "poch", "POCH", "loss", "Loss", "LOSS", "fine-tun", "Fine-tun", "Fine-Tun", "FINE-TUN", "finetun", "Finetun", "FineTun", "FINETUN", "sft", "SFT", "Sft", "lora", "LoRA", "Lora", "LoRa", "LORA", "backward", "Backward", "BACKWARD", "optimizer.step", "trainer.fit", "训练", "微调"}

// nodeLocalWords are the words, as written, one of which every match of
// reNodeLocal holds.
var nodeLocalWords = []string{"shared", "Shared", "SHARED", "ode-local", "ode local", "ODE-LOCAL", "ode-specific", "ode specific", "ODE-SPECIFIC", "node", "Node", "NODE", "machine", "Machine", "MACHINE", "host", "Host", "HOST", "共享"}

// mixedDevicesWords are the words, as written, one of which every match of
// reMixedDevices holds.
var mixedDevicesWords = []string{"same device", "same Device", "same DEVICE", "same GPU", "same gpu", "same cuda", "same CUDA", "same card", "different device", "different GPU", "different gpu", "different card",
	"同一", "不同的", "一块卡", "一张卡", "一个卡", "一块显卡", "一张显卡", "一个设备", "一块设备", "一块gpu", "一块GPU", "一张gpu", "一张GPU", "一个gpu", "一个GPU", "一个device"}

// secondJobWords are the words, as written, one of which every match of
// reSecondJob holds.
var secondJobWords = []string{"same", "Same", "SAME", "machine", "Machine", "node", "Node", "server", "Server", "host", "Host", "computer", "Computer", "workstation", "Workstation", " box", "同一", "同时"}

// secondJobNouns are the words, as written, one of which every match of
// reSecondJob also holds: what runs twice.
var secondJobNouns = []string{"job", "Job", "training", "Training", "experiment", "Experiment", "task", "Task", "program", "Program", "script", "Script", "dataset", "Dataset", "model", "Model", "config", "Config",
	"任务", "训练", "实验", "程序", "作业"}

// p2pOffWords are the words, as written, one of which every match of
// reP2POff holds.
var p2pOffWords = []string{"P2P_DISABLE", "P2P_LEVEL", "p2p_disable", "p2p_level"}

// masterLoopbackWords are the words, as written, one of which every match
// of reMasterLoopback holds.
var masterLoopbackWords = []string{"127.0.0.1", "localhost", "LOCALHOST", "Localhost"}

// nodeWords are the words, as written, one of which every match of
// reOneNodeOK and of reMultiNodeFail holds.
var nodeWords = []string{"node", "Node", "NODE", "machine", "Machine", "MACHINE", "host", "Host", "HOST", "server", "Server", "SERVER", "computer", "Computer", " PC", " pc", " box", "workstation", "Workstation", "单机", "多机", "节点", "台", "跨机"}

// lossNaNWords are the words, as written, one of which every match of
// reLossNaN holds.
var lossNaNWords = []string{"nan", "NaN", "NAN", "Nan"}

// lossZeroWords are the words, as written, one of which every match of
// reLossZero holds; zeroWords those of its figure said in words.
var (
	lossZeroWords = []string{"loss", "Loss", "LOSS", "损失"}
	zeroWords     = []string{"zero", "Zero", "ZERO"}
)

// zero2Words are the words, as written, one of which every match of reZeRO2
// holds.
var zero2Words = []string{"zero", "Zero", "ZeRO", "ZERO", "ds_z2_", `"stage"`, "overlap_comm", "hpZ", "use_multi_rank_bucket_allreduce"}

// bareZero says whether s holds a 0 that stands alone as a figure ("0",
// "0.0", "0.000", not 10, x0, 0.01 or 1.0): what reLossZero's figure needs,
// cheap enough to ask of every line of a training log that says "loss".
func bareZero(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '0' || i > 0 && (isWordByte(s[i-1]) || s[i-1] == '.') {
			continue
		}
		j := i + 1
		if j+1 < len(s) && s[j] == '.' && s[j+1] == '0' {
			for j++; j < len(s) && s[j] == '0'; j++ {
			}
		}
		switch {
		case j == len(s):
			return true
		case s[j] == '.':
			if j+1 == len(s) || strings.IndexByte(" \t\n\f\r", s[j+1]) >= 0 {
				return true
			}
		case !isWordByte(s[j]):
			return true
		}
	}
	return false
}

// isWordByte is a byte of RE2's \w.
func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

// spinWords are the words, as written, one of which every match of
// reSpinPower holds.
var spinWords = []string{"power", "Power", "POWER", "wattage", "功耗", "waiting", "Waiting", "progress", "Progress", "new output", "nothing", "Nothing"}

// severalWords are the words, as written, one of which every match of
// reSeveralGPUs holds.
var severalWords = []string{"both ", "Both ", "BOTH ", "two ", "Two ", "TWO ", "three ", "Three ", "THREE ", "four ", "Four ", "FOUR ", "five ", "Five ", "FIVE ", "six ", "Six ", "SIX ", "seven ", "Seven ", "SEVEN ", "eight ", "Eight ", "EIGHT ", "multiple ", "Multiple ", "MULTIPLE ", "several ", "Several ", "SEVERAL ", "dual ", "Dual ", "DUAL ", "2 GPUs", "2 gpus", "2 Gpus", "2 GPUS", "2 cards", "2 Cards", "3 GPUs", "3 gpus", "3 Gpus", "3 GPUS", "3 cards", "3 Cards", "4 GPUs", "4 gpus", "4 Gpus", "4 GPUS", "4 cards", "4 Cards", "5 GPUs", "5 gpus", "5 Gpus", "5 GPUS", "5 cards", "5 Cards", "6 GPUs", "6 gpus", "6 Gpus", "6 GPUS", "6 cards", "6 Cards", "7 GPUs", "7 gpus", "7 Gpus", "7 GPUS", "7 cards", "7 Cards", "8 GPUs", "8 gpus", "8 Gpus", "8 GPUS", "8 cards", "8 Cards", "2 graphics", "2 Graphics", "3 graphics", "3 Graphics", "4 graphics", "4 Graphics", "5 graphics", "5 Graphics", "6 graphics", "6 Graphics", "7 graphics", "7 Graphics", "8 graphics", "8 Graphics", "0 x", "0 X", "0 ×", "i x", "i X", "I x", "I X", "i ×", "I ×", "卡",
	"2x ", "2X ", "2× ", "2 x ", "2 X ", "2 × ", "3x ", "3X ", "3× ", "3 x ", "3 X ", "3 × ", "4x ", "4X ", "4× ", "4 x ", "4 X ", "4 × ", "5x ", "5X ", "5× ", "5 x ", "5 X ", "5 × ", "6x ", "6X ", "6× ", "6 x ", "6 X ", "6 × ", "7x ", "7X ", "7× ", "7 x ", "7 X ", "7 × ", "8x ", "8X ", "8× ", "8 x ", "8 X ", "8 × "}

// riserWords are the words, as written, one of which every match of
// reRiser holds.
var riserWords = []string{"riser", "Riser", "RISER", "xtension", "xtender", "XTENSION", "XTENDER", "延长线", "转接线"}

// gpuLostWords are the words, as written, one of which every match of
// reGPULost holds; gpuLostSkip mark the lines of the driver and of NVML,
// whose own entries read them.
var gpuLostWords = []string{"lost", "LOST", "ff the bus", "FF THE BUS", "ut of the bus", "ff the PCI", "ff the pci", "isappear", "ISAPPEAR", "anish", "went missing", "goes missing", "gone missing", "rops out", "ropped out", "rop out", "rops off", "ropped off", "rop off",
	"掉卡", "掉了", "消失", "丢失", "不见了"}

var gpuLostSkip = []string{"NCCL", "NVRM", "Xid", "nvml", "Unable to determine"}

// oomWords are the words, as written, one of which every match of
// reOOMSaid holds; oomSkip mark the lines of the entries' own messages.
var oomWords = []string{"OOM", "oom", "Oom", "ut of", "ut Of", "UT OF", "Ut of", "Ut Of", "ut-of", "ut-Of", "UT-OF", "显存", "enough", "Enough", "ENOUGH", "nsufficient", "NSUFFICIENT"}

var oomSkip = []string{"NCCL INFO", "Tried to allocate", "CUDA error: out of memory", "cuda runtime error (2)", "OutOfMemoryError"}

// distWords are the words one of which every match of reDistCall holds.
var distWords = []string{"init_process_group", "all_reduce", "allreduce", "barrier(", "torch/distributed", "torch.distributed", "dist.", "deepspeed"}

// prose is the state of these readers.
type prose struct {
	hang      event // a line that says a run on GPUs hangs
	atInit    bool  // the hang line names the process group's set-up, or the launch prints it
	introAt   int   // the line of a hang that points at what follows ("it never returns from:")
	later     event // a hang line that says the run made progress before it hung
	first     event // a hang line that says it comes at the first collective or step, or before the run starts
	diverge   event // a line that says or shows ranks taking different paths
	loopback  event // a launch over several nodes whose master address is the local host
	p2pOff    event // a line that says turning NCCL's P2P off made the run work
	nodeLocal event // a line that says files one node wrote are not seen on another
	second    event // a line that says a second job runs on the same machine
	training  event // a line that says or shows a training run
	elsewhere event // a line that says memory or work lands on GPUs other than the one chosen
	mixed     event // a line that says tensors are on different devices
	firstOnly event // a line that says a run works on the first GPU and fails on another chosen alone
	firstOK   int   // the last line that says a run works on the first GPU, 0 if none
	otherFail int   // the last line that says a run fails on another GPU, 0 if none
	oneNode   event // a line that says a run works on one node
	multiFail event // a line that says a run fails or hangs across nodes
	power     event // a line that says the whole machine reboots or powers off
	powerGPUs bool  // that line names several GPUs
	several   bool  // a line names several GPUs (reSeveralGPUs)
	riser     event // a line that says a GPU sits on a riser or extension cable
	lost      event // a line that says a GPU was lost, fell off the bus or went from the machine
	oom       event // a line that says GPU memory ran out (reOOMSaid)
	lossNaN   event // a line that says the loss became NaN
	lossZero  event // a line that says or shows the loss fell to 0
	zero2     event // a line that names DeepSpeed's ZeRO stage 2 or the settings of its reduction (reZeRO2)
	nanPairs  bool  // a line that ties the NaN to some pairs of GPUs
	form      bool  // the line before asked NCCL's issue form's question (issueForm)
	close     event // a line that says results differ only a little
	ctrlC     event // a run stopped by hand (^C, KeyboardInterrupt)
	wrong     event // a line that says results came back wrong
	dist      bool  // the paste calls torch.distributed or DeepSpeed
	mig       event // a line that says the GPUs are MIG slices
	vm        event // a line that says the GPUs are in a virtual machine
	cont      event // a line that says GPUs are split over several containers
	p2p       bool  // the paste speaks of P2P, NVLink or CUDA IPC
	amd       event // a line that names an AMD host CPU
	socks     event // a line that says the host has several CPU sockets or NUMA nodes
	slow      event // a line that says communication between GPUs is slow
	bus       event // a Bus error (SIGBUS)
	lib       bool  // a frame or library of NCCL or UCX
	shm       event // a line that says /dev/shm is too small
	dockerShm event // a docker run line for several GPUs with Docker's default /dev/shm
	fmAt      int   // the line of Fabric Manager's systemctl status header
	fm        event // Fabric Manager failed or not running
	nvls      event // a line that says NCCL uses no NVLS channels
	win       event // a line that says the run is on native Windows
	wsl       bool  // the paste names WSL: Linux, not native Windows
	hangBare  event // a hang said without its place
	multi     bool  // the paste starts a distributed or multi-GPU run
	bwFig     event // a line that sets a bandwidth figure against the link's headline
	bwCar     bool  // the paste names NVLink, NVSwitch or a bandwidth test
	sock1     event // lscpu shows one socket
	mig2      bool  // a line names MIG, outside nvidia-smi's headers ("use NCCL with MIG")
	acs       event // a line that says ACS is on
	iommu     event // a line that says the IOMMU is on, or a GRUB line that turns it on
	// noise.go
	peerAlready event // a line that says peer access was already enabled, or a checker reports it
	ibvWarn     event // a line that speaks of libibverbs's provider warnings
	fabricNS    event // a line that says the NVLink fabric state is Not Supported or N/A
	errorColumn event // a line that asks about nccl-tests' error column
	testsNamed  bool  // the paste names nccl-tests or shows its table
	noNCCL      event // a line that says NCCL or a multi-GPU run is not supported on Windows or macOS
	splitMode   event // a line that names llama.cpp's split mode
	splitTensor event // a line that names llama.cpp's tensor split mode

	plat platform // where the GPUs run, said (platform.go)

	hangLine event           // an error line that says a collective, a set-up or a barrier timed out (hangline.go)
	differ   event           // watchdog lines of two ranks at one collective that disagree on it (hangline.go)
	works    map[string]work // each collective's SeqNum: the first watchdog line's rank, OpType and NumelIn

	// lines with the reader of reFirstOnly's words that said neither half (at most maxFirstRead)
	firstRead map[string]bool
}

// proseLine reads stripped line s.
func (x *Extractor) proseLine(s string, n int, raw string) {
	p := &x.prose
	x.issueForm(s, n, raw)
	if x.woke(1<<proseHang) && (!p.hang.set || !p.later.set || !p.first.set) && containsAny(s, hangWords...) && !strings.Contains(s, "NCCL INFO") && reHangWord.MatchString(s) &&
		(reHangWhere.MatchString(s) || reHangIntro.MatchString(s) || reHangLater.MatchString(s) && reHangProgress.MatchString(s)) && !reHangNot.MatchString(s) {
		if !p.hang.set {
			p.hang.mark(n, raw)
			p.atInit = p.atInit || containsAny(s, initWords...) && reInitStage.MatchString(s) && !reInitNot.MatchString(s)
			if reHangIntro.MatchString(s) {
				p.introAt = n
			}
		}
		if !p.later.set && reHangLater.MatchString(s) {
			p.later.mark(n, raw)
		}
		if !p.first.set && reHangFirst.MatchString(s) {
			p.first.mark(n, raw)
		}
	} else if x.woke(1<<proseHang) && !p.hang.set && !p.hangBare.set && containsAny(s, hangWords...) && !strings.Contains(s, "NCCL INFO") && reHangBare.MatchString(s) && !reHangNot.MatchString(s) && !reHangBareNot.MatchString(s) {
		p.hangBare.mark(n, raw)
		if !p.first.set && reHangFirst.MatchString(s) {
			p.first.mark(n, raw)
		}
	}
	if x.woke(1<<proseHang) && !p.hang.set && containsAny(s, timeoutSaidWords...) && !strings.Contains(s, "NCCL INFO") && reTimeoutSaid.MatchString(s) && !reTimeoutNot.MatchString(s) {
		p.hang.mark(n, raw)
	}
	if x.woke(1<<proseHang) && !p.hang.set && !p.hangBare.set && containsAny(s, spinWords...) && reSpinPower.MatchString(s) && reSpin.MatchString(s) {
		p.hangBare.mark(n, raw)
	}
	if !p.atInit && containsAny(s, initWords...) && !strings.Contains(s, "NCCL INFO") && reInitLog.MatchString(s) {
		p.atInit = true
	}
	// A hang that points at what follows is at the set-up when the call
	// it points at is init_process_group (NVIDIA/tacotron2#38).
	if !p.atInit && p.introAt > 0 && n > p.introAt && n-p.introAt <= introNear && x.woke(1<<distCall) && strings.Contains(s, "init_process_group") {
		p.atInit = true
	}
	if x.woke(1<<proseDiverge) && !p.diverge.set && containsAny(s, divergeWords...) && !strings.Contains(s, "NCCL INFO") && reRanksDiverge.MatchString(s) {
		p.diverge.mark(n, raw)
	}
	if x.woke(1<<proseScaling) && !p.elsewhere.set && containsAny(s, elsewhereWords...) && !strings.Contains(s, "NCCL INFO") && reElsewhere.MatchString(s) {
		p.elsewhere.mark(n, raw)
	}
	if x.woke(1<<proseFirstOnly) && !p.firstOnly.set && containsAny(s, firstOnlyWords...) && !strings.Contains(s, "NCCL INFO") {
		ok, fails := reFirstOK.MatchString(s), reOtherFails.MatchString(s)
		switch {
		case ok && fails || reFirstOnly.MatchString(s):
			p.firstOnly.mark(n, raw)
		case ok:
			if p.otherFail > 0 && n-p.otherFail <= firstOnlyGap {
				p.firstOnly.mark(n, raw)
			}
			p.firstOK = n
		case fails:
			if p.firstOK > 0 && n-p.firstOK <= firstOnlyGap {
				p.firstOnly.mark(n, raw)
			}
			p.otherFail = n
		case len(p.firstRead) < maxFirstRead:
			if p.firstRead == nil {
				p.firstRead = map[string]bool{}
			}
			p.firstRead[raw] = true
		}
	}
	if x.woke(1<<proseScaling) && !p.mixed.set && containsAny(s, mixedDevicesWords...) && !strings.Contains(s, "NCCL INFO") && reMixedDevices.MatchString(s) {
		p.mixed.mark(n, raw)
	}
	if x.woke(1<<proseTraining) && !p.training.set && containsAny(s, trainingWords...) && !strings.Contains(s, "NCCL INFO") && reTraining.MatchString(s) {
		p.training.mark(n, raw)
	}
	if x.woke(1<<proseNodes) && !p.loopback.set && containsAny(s, masterLoopbackWords...) && !strings.Contains(s, "NCCL INFO") && reMasterLoopback.MatchString(s) {
		p.loopback.mark(n, raw)
	}
	if x.woke(1<<proseNodes) && !p.nodeLocal.set && containsAny(s, nodeLocalWords...) && !strings.Contains(s, "NCCL INFO") && reNodeLocal.MatchString(s) {
		p.nodeLocal.mark(n, raw)
	}
	if x.woke(1<<proseNodes) && !p.second.set && containsAny(s, secondJobNouns...) && containsAny(s, secondJobWords...) && !strings.Contains(s, "NCCL INFO") && reSecondJob.MatchString(s) {
		p.second.mark(n, raw)
	}
	if x.woke(1<<proseNodes) && (!p.oneNode.set || !p.multiFail.set) && containsAny(s, nodeWords...) && !strings.Contains(s, "NCCL INFO") {
		if !p.oneNode.set && reOneNodeOK.MatchString(s) {
			p.oneNode.mark(n, raw)
		}
		if !p.multiFail.set && reMultiNodeFail.MatchString(s) {
			p.multiFail.mark(n, raw)
		}
	}
	if x.woke(1<<prosePower) && !p.power.set && containsAny(s, hostResetWords...) && !strings.Contains(s, "NCCL") && saidIn(s, reHostReset, reHostResetNot) {
		p.power.mark(n, raw)
		p.powerGPUs = reBothGPUs.MatchString(s)
	}
	if x.woke(1<<prosePower) && !p.several && containsAny(s, severalWords...) && !strings.Contains(s, "NCCL INFO") && reSeveralGPUs.MatchString(s) {
		p.several = true
	}
	if x.woke(1<<proseClose) && !p.close.set && containsAny(s, closeWords...) {
		if m := reCloseSaid.FindStringIndex(s); m != nil && reCloseTopic.MatchString(s[max(0, m[0]-closeNear):min(len(s), m[1]+closeNear)]) {
			p.close.mark(n, raw)
		}
	}
	if x.woke(1<<prosePower) && !p.riser.set && containsAny(s, riserWords...) && !strings.Contains(s, "NCCL") && reRiser.MatchString(s) && !reRiserNot.MatchString(s) {
		p.riser.mark(n, raw)
	}
	if x.woke(1<<prosePower) && !p.lost.set && containsAny(s, gpuLostWords...) && !containsAny(s, gpuLostSkip...) && reGPULost.MatchString(s) && !reGPULostNot.MatchString(s) {
		p.lost.mark(n, raw)
	}
	if x.woke(1<<prosePower) && !p.oom.set && containsAny(s, oomWords...) && !containsAny(s, oomSkip...) && reOOMSaid.MatchString(s) && !reOOMNot.MatchString(s) {
		p.oom.mark(n, raw)
	}
	if x.woke(1<<proseLossNaN) && containsAny(s, lossNaNWords...) && !strings.Contains(s, "NCCL INFO") && reLossNaN.MatchString(s) && !reLossNaNNot.MatchString(s) {
		if !p.lossNaN.set {
			p.lossNaN.mark(n, raw)
		}
		p.nanPairs = p.nanPairs || reNaNPairs.MatchString(s)
	}
	if x.woke(1<<proseLossNaN) && !p.lossZero.set && containsAny(s, lossZeroWords...) && (bareZero(s) || containsAny(s, zeroWords...)) && !strings.Contains(s, "NCCL INFO") && reLossZero.MatchString(s) {
		p.lossZero.mark(n, raw)
	}
	if x.woke(1<<proseLossNaN) && !p.zero2.set && containsAny(s, zero2Words...) && reZeRO2.MatchString(s) {
		p.zero2.mark(n, raw)
	}
	if x.woke(1<<proseWrong) && !p.wrong.set && containsAny(s, wrongWords...) && reWrongOut.MatchString(s) {
		p.wrong.mark(n, raw)
	}
	if strings.HasPrefix(s, "^C") || strings.HasPrefix(s, "@^C") || strings.Contains(s, "KeyboardInterrupt") {
		p.ctrlC.mark(n, raw)
	}
	// The whole line: torchrun's warnings name torch/distributed in the
	// prefix Strip removes, and are a distributed run as much.
	if x.woke(1<<distCall) && !p.dist && containsAny(raw, distWords...) && reDistCall.MatchString(raw) {
		p.dist = true
	}
	if x.woke(1<<proseMIG) && !p.mig.set && containsAny(s, migWords...) && reMIGProse.MatchString(s) && !rePlaceNot.MatchString(s) {
		p.mig.mark(n, raw)
	}
	// nvidia-smi's table ("MIG M.") and -q ("MIG Mode") name MIG on every
	// machine; the MIG reader of paste.go reads those.
	if x.woke(1<<proseMIG) && !p.mig2 && containsAny(s, migWords...) && reMIGNamed.MatchString(s) && !containsAny(s, "MIG M.", "MIG Mode", "NCCL INFO") {
		p.mig2 = true
	}
	if x.woke(1<<proseVM) && !p.vm.set && containsAny(s, vmWords...) && reVMProse.MatchString(s) && !rePlaceNot.MatchString(s) {
		p.vm.mark(n, raw)
	}
	if x.woke(1<<proseContainers|1<<containerHost) && !p.cont.set && containsAny(s, containerWords...) && reContainers.MatchString(s) && !reContainerNot.MatchString(s) {
		p.cont.mark(n, raw)
	}
	// NCCL's own channel lines ("via P2P/IPC") say what it chose, not what
	// the person wants between containers.
	if x.woke(1<<proseP2P) && !p.p2p && containsAny(s, p2pIntentWords...) && !strings.Contains(s, "NCCL INFO") && reP2PIntent.MatchString(s) {
		p.p2p = true
	}
	if x.woke(1<<proseP2P) && !p.p2pOff.set && containsAny(s, p2pOffWords...) && !strings.Contains(s, "NCCL INFO") && reP2POff.MatchString(s) && !reP2POffNot.MatchString(s) {
		p.p2pOff.mark(n, raw)
	}
	if x.woke(1<<proseAMD) && !p.amd.set && containsAny(s, amdWords...) && reAMDCPU.MatchString(s) && !reAMDNot.MatchString(s) {
		p.amd.mark(n, raw)
	}
	if x.woke(1<<proseSockets) && !p.socks.set && containsAny(s, socketWords...) && !strings.Contains(s, "NCCL INFO") && reSockets.MatchString(s) && !reSocketsNot.MatchString(s) {
		p.socks.mark(n, raw)
	}
	if !p.sock1.set && strings.HasPrefix(s, "Socket(s):") && reOneSocket.MatchString(s) {
		p.sock1.mark(n, raw)
	}
	if x.woke(1<<proseSlow) && !p.slow.set && containsAny(s, slowWords...) && !strings.Contains(s, "NCCL INFO") && reSlow.MatchString(s) &&
		reSlowWhere.MatchString(s) && !reSlowNot.MatchString(s) {
		if !reSlowComm.MatchString(s) && reSlowRun.MatchString(s) {
			// The run's speed: several GPUs no faster than one (scaling.go).
			if !x.scale.fail.set {
				x.scale.fail.mark(n, raw)
			}
		} else {
			p.slow.mark(n, raw)
		}
	}
	// NCCL's own lines name its calls (ncclCommInitRank) and /dev/shm
	// without a fault.
	if !p.shm.set && !p.dockerShm.set && strings.Contains(s, "docker") && !strings.HasSuffix(s, "\\") &&
		reDockerGPURun.MatchString(s) && reDockerMulti.MatchString(s) && !reDockerShm.MatchString(s) {
		p.dockerShm.mark(n, raw)
	}
	if x.woke(1<<proseSHM) && !p.shm.set && containsAny(s, shmWords...) && !strings.Contains(s, "NCCL INFO") {
		if !p.bus.set && reBusError.MatchString(s) {
			p.bus.mark(n, raw)
		}
		if !p.lib && reSHMLib.MatchString(s) {
			p.lib = true
		}
		if reSHMSmall.MatchString(s) {
			p.shm.mark(n, raw)
		}
	}
	if x.woke(1<<proseNVLS) && !p.nvls.set && containsAny(s, nvlsWords...) && !strings.Contains(s, "NCCL INFO") && reNVLSZero.MatchString(s) {
		p.nvls.mark(n, raw)
	}
	if x.woke(1<<proseWindows) && !p.wsl && containsAny(s, windowsWords...) {
		not := reWindowsNot.FindAllStringIndex(s, -1)
		p.wsl = len(not) > 0 && containsAny(s, "WSL", "wsl", "Wsl")
		// "under Windows" counts in "training under Windows ... there was
		// no Windows version of NCCL".
		if !p.wsl && !p.win.set && saidOutside(s, reWindows, not) {
			p.win.mark(n, raw)
		}
	}
	if x.woke(1<<proseWinLaunch) && !p.multi && containsAny(s, winLaunchWords...) && !strings.Contains(s, "NCCL INFO") && reWinLaunch.MatchString(s) {
		p.multi = true
	}
	if x.woke(1<<proseBWFigure) && !p.bwFig.set && containsAny(s, bwFigureWords...) && !strings.Contains(s, "NCCL INFO") && reBWFigure.MatchString(s) {
		p.bwFig.mark(n, raw)
	}
	if x.woke(1<<proseBWCarrier) && !p.bwCar && containsAny(s, bwCarrierWords...) && !strings.Contains(s, "NCCL INFO") && reBWCarrier.MatchString(s) {
		p.bwCar = true
	}
	if x.woke(1<<proseFM) && !p.fm.set && containsAny(s, fmWords...) {
		switch {
		case reFMHeader.MatchString(s):
			p.fmAt = n
		case p.fmAt > 0 && n-p.fmAt <= 4 && reFMActive.MatchString(s), reFMExec.MatchString(s):
			p.fm.mark(n, raw)
		}
	}
	if x.woke(1<<proseACS) && !p.acs.set && containsAny(s, acsWords...) && !strings.Contains(s, "NCCL INFO") && reACSOn.MatchString(s) && !reACSNot.MatchString(s) {
		p.acs.mark(n, raw)
	}
	if x.woke(1<<proseIOMMU) && !p.iommu.set && containsAny(s, iommuWords...) && !strings.Contains(s, "NCCL INFO") {
		if m := reGrubIOMMU.FindString(s); m != "" {
			if grubIOMMUOn(m) {
				p.iommu.mark(n, raw)
			}
		} else if reIOMMUOnSaid.MatchString(s) && !reIOMMUNot.MatchString(s) {
			p.iommu.mark(n, raw)
		}
	}
	x.scalingLine(s, n, raw)
	x.noiseLine(s, n, raw)
	x.platformLine(s, n, raw)
	x.hangLineRead(s, n, raw)
}

// grubIOMMUOn says whether the options of GRUB's command line m turn the
// IOMMU's translation on: intel_iommu=on, amd_iommu=on or iommu=on, and
// neither passthrough (iommu=pt), software bouncing (iommu=soft) nor an
// IOMMU turned off, which are the fixes.
func grubIOMMUOn(m string) bool {
	on := false
	for _, a := range reGrubArg.FindAllStringSubmatch(m, -1) {
		name, val := a[1], strings.ToLower(a[2])
		switch {
		case val == "on" || val == "force_enable" || val == "force":
			on = on || name != "iommu.passthrough"
		case val == "off" || val == "pt" || val == "soft" || name == "iommu.passthrough" && (val == "1" || val == "y"):
			return false
		}
	}
	return on
}

// proseFact is a fact a prose reader gives once the input ends: name set
// true at prio from the line of the reader's event, where gate holds. The
// build writes these rows to the browser's table (Table), which names the
// event and the gate as paste.js's prose state and gates do, so the list is
// written here alone.
type proseFact struct {
	name   string
	prio   int
	source string
	event  string               // the field of prose, as paste.js names it
	ev     func(p *prose) event // that field
	gate   string               // "" or a name of proseGates
}

// proseGates are the conditions a prose fact may need besides its line: a
// hang said by Ctrl-C counts in a distributed run only, a container split
// only where P2P or IPC is wanted, a Bus error only in NCCL's or UCX's
// frames or beside NCCL's channel lines, a figure only beside what carries
// it, native Windows only with a distributed launch and no WSL.
var proseGates = map[string]func(x *Extractor) bool{
	"dist": func(x *Extractor) bool { return x.prose.dist },
	"p2p":  func(x *Extractor) bool { return x.prose.p2p },
	"lib":  func(x *Extractor) bool { return x.prose.lib || x.nccl.firstChannel.set },
	// A Bus error in a distributed run (torchelastic's "failed (exitcode:
	// -7)", hiyouga/LlamaFactory#322): the shared memory of the ranks or of
	// their data loaders, as in NCCL's frames.
	"libOrDist": func(x *Extractor) bool { return x.prose.lib || x.nccl.firstChannel.set || x.prose.dist },
	"bwCar":     func(x *Extractor) bool { return x.prose.bwCar },
	"nativeLaunch": func(x *Extractor) bool {
		_, wsl := x.prio["wsl"]
		return (x.prose.dist || x.prose.multi) && !x.prose.wsl && !wsl
	},
	// The IOMMU said on is not read where passthrough is known:
	// translation, not the IOMMU itself, drops peer traffic.
	"noPassthrough": func(x *Extractor) bool {
		v, ok := x.facts["iommu.passthrough"]
		return !ok || v.Value != "true"
	},
	"testsNoWrong":   testsNoWrong,
	"notWSL":         notWSL,
	"notTensorSplit": notTensorSplit,
	// A hang at the process group's set-up: NCCL printed no set-up line
	// and no channel, so it never set up a communicator.
	"atInit": func(x *Extractor) bool { return x.prose.atInit && !x.nccl.firstChannel.set && x.sym.hang.line == 0 },
	"noHang": func(x *Extractor) bool {
		_, seen := x.facts["hang.seen"]
		_, stopped := x.facts["nccl.stopped_after_init"]
		return !seen && !stopped
	},
	// A NaN tied to some pairs of GPUs is the path's, answered as wrong data.
	"nanNotPaired": func(x *Extractor) bool { return !x.prose.nanPairs },
	// A hang after progress is not one at the set-up.
	"notAtInit": func(x *Extractor) bool { return !x.prose.atInit },
	// Across nodes it fails, and on one it works: both said.
	"oneNode": func(x *Extractor) bool { return x.prose.oneNode.set },
	// A machine that loses power, in a run of several GPUs.
	// The machine said to reboot, with several GPUs named on that line or
	// any other, or a multi-GPU run started.
	"powerGPUs": func(x *Extractor) bool {
		return x.prose.powerGPUs || x.prose.several || x.prose.multi || x.prose.dist
	},
}

// proseFactRows are the prose readers' facts in the order they are set. MIG
// and virtualization said in words sit at 0, below every tool's reading:
// nvidia-smi saying MIG is off or the virtualization mode is None wins.
var proseFactRows = []proseFact{
	{"hang.seen", 2, Said, "hang", func(p *prose) event { return p.hang }, ""},
	{"hang.at_init", 2, Said, "hang", func(p *prose) event { return p.hang }, "atInit"},
	{"hang.later", 2, Said, "later", func(p *prose) event { return p.later }, "notAtInit"},
	{"hang.first", 2, Said, "first", func(p *prose) event { return p.first }, ""},
	{"nodes.multi_only", 1, Said, "multiFail", func(p *prose) event { return p.multiFail }, "oneNode"},
	{"ranks.diverge", 1, Said, "diverge", func(p *prose) event { return p.diverge }, ""},
	{"launch.master_loopback", 1, Said, "loopback", func(p *prose) event { return p.loopback }, ""},
	{"p2p.off_works", 1, Said, "p2pOff", func(p *prose) event { return p.p2pOff }, ""},
	{"storage.node_local", 1, Said, "nodeLocal", func(p *prose) event { return p.nodeLocal }, ""},
	{"launch.second_job", 1, Said, "second", func(p *prose) event { return p.second }, ""},
	{"run.training", 1, Said, "training", func(p *prose) event { return p.training }, ""},
	{"gpu.unwanted_use", 1, Said, "elsewhere", func(p *prose) event { return p.elsewhere }, ""},
	{"devices.mixed", 1, Said, "mixed", func(p *prose) event { return p.mixed }, ""},
	{"gpu.first_only", 1, Said, "firstOnly", func(p *prose) event { return p.firstOnly }, ""},
	{"host.power_loss", 1, Said, "power", func(p *prose) event { return p.power }, "powerGPUs"},
	{"pcie.riser", 1, Said, "riser", func(p *prose) event { return p.riser }, ""},
	{"gpu.lost", 1, Said, "lost", func(p *prose) event { return p.lost }, ""},
	{"memory.oom", 1, Said, "oom", func(p *prose) event { return p.oom }, ""},
	{"loss.nan", 1, Said, "lossNaN", func(p *prose) event { return p.lossNaN }, "nanNotPaired"},
	{"loss.zero", 1, Said, "lossZero", func(p *prose) event { return p.lossZero }, ""},
	{"deepspeed.zero2", 1, "DeepSpeed's settings", "zero2", func(p *prose) event { return p.zero2 }, ""},
	{"output.wrong", 1, Said, "wrong", func(p *prose) event { return p.wrong }, ""},
	{"hang.seen", 1, "interrupted run", "ctrlC", func(p *prose) event { return p.ctrlC }, "dist"},
	{"mig.enabled", 0, Said, "mig", func(p *prose) event { return p.mig }, ""},
	{"virtualized", 0, Said, "vm", func(p *prose) event { return p.vm }, ""},
	{"container.p2p", 1, Said, "cont", func(p *prose) event { return p.cont }, "p2p"},
	{"cpu.amd", 1, Said, "amd", func(p *prose) event { return p.amd }, ""},
	{"cpu.sockets", 1, Said, "socks", func(p *prose) event { return p.socks }, ""},
	{"perf.slow", 1, Said, "slow", func(p *prose) event { return p.slow }, ""},
	{"shm.small", 1, Said, "shm", func(p *prose) event { return p.shm }, ""},
	{"shm.small", 1, "backtrace", "bus", func(p *prose) event { return p.bus }, "libOrDist"},
	{"shm.small", 1, "docker run", "dockerShm", func(p *prose) event { return p.dockerShm }, ""},
	{"fabricmanager.down", 2, "systemctl", "fm", func(p *prose) event { return p.fm }, ""},
	{"nvls.none", 1, Said, "nvls", func(p *prose) event { return p.nvls }, ""},
	{"perf.vs_headline", 1, Said, "bwFig", func(p *prose) event { return p.bwFig }, "bwCar"},
	{"windows.distributed", 1, Said, "win", func(p *prose) event { return p.win }, "nativeLaunch"},
	// Below every tool's reading: lspci's ACSCtl and setpci's word, dmesg
	// and the running kernel's command line say what is, words what
	// someone believes.
	{"acs.redirect", 0, Said, "acs", func(p *prose) event { return p.acs }, ""},
	{"iommu.enabled", 0, Said, "iommu", func(p *prose) event { return p.iommu }, "noPassthrough"},
	// Harmless messages said in words (noise.go).
	{"p2p.already_enabled", 1, Said, "peerAlready", func(p *prose) event { return p.peerAlready }, ""},
	{"ibverbs.warning", 1, Said, "ibvWarn", func(p *prose) event { return p.ibvWarn }, ""},
	{"fabric.not_supported", 1, Said, "fabricNS", func(p *prose) event { return p.fabricNS }, ""},
	{"nccl.tests.error_column", 1, Said, "errorColumn", func(p *prose) event { return p.errorColumn }, "testsNoWrong"},
	{"windows.distributed", 1, Said, "noNCCL", func(p *prose) event { return p.noNCCL }, "notWSL"},
	{"llamacpp.split_mode", 1, Said, "splitMode", func(p *prose) event { return p.splitMode }, "notTensorSplit"},
	{"llamacpp.split_tensor", 1, Said, "splitTensor", func(p *prose) event { return p.splitTensor }, ""},
	// Where the GPUs run, said in words (platform.go): below the host's
	// own signs (/.dockerenv, the WSL kernel, nvidia-smi's virtualization
	// mode).
	{"container", 0, Said, "ctr", func(p *prose) event { return p.plat.ctr }, ""},
	{"wsl", 0, Said, "wslSaid", func(p *prose) event { return p.plat.wsl }, ""},
	{"virtualized", 0, Said, "vmSaid", func(p *prose) event { return p.plat.vm }, ""},
	{"gpu.sharing", 1, Said, "share", func(p *prose) event { return p.plat.share }, ""},
	{"gpus.isolated", 1, Said, "iso", func(p *prose) event { return p.plat.iso }, ""},
	// The program's own line that a collective or a barrier timed out
	// (hangline.go): above a hang said in words.
	{"hang.seen", 3, "error line", "hangLine", func(p *prose) event { return p.hangLine }, ""},
	{"collectives.differ", 3, "error line", "differ", func(p *prose) event { return p.differ }, ""},
	// Last: a hang said with no word of where counts only when nothing
	// else says the run hung.
	{"hang.said", 1, Said, "hangBare", func(p *prose) event { return p.hangBare }, "noHang"},
}

// proseFacts gives the facts of these readers once the input ends.
func (x *Extractor) proseFacts() {
	for _, f := range proseFactRows {
		if f.gate == "" || proseGates[f.gate](x) {
			x.setEvent(f.name, "bool", "true", f.prio, f.ev(&x.prose), f.source)
		}
	}
	// Results said to differ only a little are not wrong values.
	x.setEvent("output.close", "bool", "true", 1, x.prose.close, Said)
	x.setEvent("output.wrong", "bool", "false", 2, x.prose.close, Said)
	// lscpu's one socket: no pair of GPUs crosses sockets.
	if !x.prose.socks.set {
		x.setEvent("cpu.sockets", "bool", "false", 1, x.prose.sock1, "lscpu")
	}
	x.scalingFacts()
}

// pathFactNames are the facts that tell the causes of a slow run apart: the
// topology (NVLink, pairs across sockets), what NCCL chose or was told
// (its transport, P2P refused, NCCL_P2P_DISABLE, NCCL_P2P_LEVEL), ACS,
// the IOMMU, the CPU sockets, the link a bandwidth test ran over, the
// cards and where they run.
var pathFactNames = []string{"topo.sys_pairs", "nvlink.present", "nvswitch.present", "nccl.transport", "nccl.p2p_used", "nccl.p2p_refused",
	"env.NCCL_P2P_DISABLE", "env.NCCL_P2P_LEVEL", "acs.redirect", "iommu.enabled", "iommu.passthrough", "iommu.faults", "cpu.sockets",
	"p2p.all_pairs_ok", "p2p.link_gbs", "p2p.bw_below_link", "p2p.test.slow_pairs", "nccl.tests.link_gbs"}

// placeFactNames tell the path only when true: GeForce cards without P2P,
// a VM, WSL, MIG, GPUs split over containers; a data-centre card's name or
// MIG off says nothing of it.
var placeFactNames = []string{"gpu.consumer", "virtualized", "wsl", "mig.enabled", "container.p2p"}

// pathFacts says, beside a run said to be slow, whether the paste shows
// the path between the GPUs (topo.known): with nothing of it shown, the
// usual suspects answer in the order one checks them (ACS redirect, P2P
// not used, a slow PCIe path, CPU sockets), and the facts above tell them
// apart.
func (x *Extractor) pathFacts() {
	e := x.prose.slow
	if !e.set {
		return
	}
	// Several GPUs said no faster than one have their own answer: nothing
	// between the GPUs need be broken (scaling.go); so has llama.cpp's
	// split mode named, whose default runs the GPUs one after another.
	for _, name := range []string{"perf.no_speedup", "perf.dataparallel", "llamacpp.split_mode"} {
		if _, ok := x.facts[name]; ok {
			return
		}
	}
	if reSlowRate.MatchString(e.text) {
		return
	}
	if reSlowTopo.MatchString(e.text) {
		x.setEvent("topo.known", "bool", "true", 0, e, Said)
		return
	}
	for _, name := range pathFactNames {
		if f, ok := x.facts[name]; ok {
			x.setEvent("topo.known", "bool", "true", 0, e, f.Source)
			return
		}
	}
	for _, name := range placeFactNames {
		if f, ok := x.facts[name]; ok && f.Value == "true" {
			x.setEvent("topo.known", "bool", "true", 0, e, f.Source)
			return
		}
	}
	if x.prose.mig2 {
		x.setEvent("topo.known", "bool", "true", 0, e, Said)
		return
	}
	x.setEvent("topo.known", "bool", "false", 0, e, Said)
}

// issueFormQuestion is the question NCCL's issue form asks first; the
// answer, one of its options, comes as a line of its own after it
// (NVIDIA/nccl's .github/ISSUE_TEMPLATE/ISSUE.yaml). An earlier form asked
// for "Lower accuracy than expected" too.
const issueFormQuestion = "How is this issue impacting you?"

// issueFormAnswers are the form's options that say what went wrong, each
// as the prose fact it is: wrong data, a hang, a slow run. "Application
// crash" says nothing an error line does not.
var issueFormAnswers = []string{"Data corruption", "Lower accuracy than expected", "Application hang", "Lower performance than expected"}

// issueForm reads the answer to NCCL's issue form's question: the first
// line with text after it.
func (x *Extractor) issueForm(s string, n int, raw string) {
	p := &x.prose
	if p.form && strings.TrimSpace(s) != "" {
		p.form = false
		switch strings.TrimSpace(s) {
		case issueFormAnswers[0], issueFormAnswers[1]:
			if !p.wrong.set {
				p.wrong.mark(n, raw)
			}
		case issueFormAnswers[2]:
			if !p.hang.set {
				p.hang.mark(n, raw)
			}
		case issueFormAnswers[3]:
			if !p.slow.set {
				p.slow.mark(n, raw)
			}
		}
	}
	if strings.Contains(s, issueFormQuestion) {
		p.form = true
	}
}
