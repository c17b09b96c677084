package paste

import (
	"strconv"
	"strings"
)

// What people write, and NCCL shows, when nothing is broken but the launch.
//
// Several GPUs training no faster than one: "Multi-GPUs is slower than One GPU", "slower on 2 GPUs than on
// 1 GPU", "no speedup with 4 GPUs", "the utilization is very low" on 4
// GPUs, "slower when the GPUs are not linked with NVLink". Most such threads
// end with a choice, not a fault: DataParallel's one process and its copies
// through GPU 0, MXNet's kvstore reducing on the CPU, a batch too small to
// pay for the gradient exchange, PCIe without NVLink. The line must say
// what fails to speed up and that there are several GPUs (or DataParallel
// or the kvstore); NCCL's own lines never say it.
//
// Several ranks on one GPU: said in words ("2 DDP instances on one GPU",
// "multiple tensorflow ranks on the same GPU"), or shown by NCCL's set-up
// lines, in which two ranks of one host give the same busId. Older NCCL
// hangs there, newer refuses with "Duplicate GPU detected".

var (
	// Several GPUs fail to beat one: slower than one GPU, no speedup, not
	// faster, does not scale, low utilization, slow without NVLink.
	reScaleFail = pattern("scaleFail", `(?i)\bslower\b.{0,20}\bthan\s(?:(?:using|with|on|running on)\s)?(?:just\s|only\s)?(?:one|1|a single)(?:\s?(?:gpus?|cards?|devices?)\b|\s*[.?!,)]|\s*$)|\bslower\b.{0,80}\bthan\b.{0,24}\b(?:one|1|a|single|the single)[\s_-]?(?:single[- ])?(?:gpu|card|device|node|machine)s?\b|\bslower\b.{0,40}\b(?:with|using|on|across)\s(?:the\s)?(?:multi-?\s?(?:gpus?|cards?)|(?:multiple|several|more|[2-9]|two|three|four|eight)\s?(?:\w{1,12}\s)?(?:gpu|card)s?)|\b\d{1,2}\s?(?:x|times)\sslower\b|\bslower\b.{0,60}\bthan\b.{0,20}\bOneDeviceStrategy\b|\bthe more (?:gpus?|nodes?)\b.{0,20}\bthe slower\b|\bmore (?:gpus?|cards?|nodes?)\b.{0,40}\b(?:train(?:ing)?\s)?time\s(?:increases?|increased|goes up|went up|grows|is longer|gets longer|got longer)\b|\b(?:speed|time|throughput)\s(?:of|with|on)\s(?:[2-8]|two|four|eight)\s(?:gpus?|cards?)\s(?:vs\.?|versus|and|compared (?:to|with))\s(?:1|one|a single)\s(?:gpus?|cards?)\s(?:is|are|was|were)\s(?:kind of\s|about\s|roughly\s|almost\s|pretty much\s)?(?:similar|the same|comparable)\b|\b(?:more\s(?:time|hours|seconds|minutes)|longer)\b.{0,60}\bthan\b.{0,30}\b(?:one|1|a|single|the single)[\s_-]?(?:single[- ])?(?:gpu|card|device)s?\b|(?:\bnot|\bno|\bnever|\bhardly|\bbarely|n't)\s(?:\w{1,12}\s)?(?:any\s)?(?:faster|quicker)\b|(?:\bno|\bwithout|\blittle|\bzero|\bminimal|\bnegligible|\bcannot|\bcan not|\bnot|n't)\s(?:get\s|see\s|achieve\s|getting\s|seeing\s)?(?:any\s|a\s|the\s)?(?:\w{1,12}\s)?speed-?\s?ups?\b|\b(?:no|without|little)\s(?:\w{1,12}\s)?(?:improvement|gain|increase)s?\s(?:in|of)\s(?:the\s)?(?:\w{1,12}\s)?(?:speed|time|throughput)\b|(?:\bnot|n't)\s(?:\w{1,12}\s)?(?:scal(?:e|ing)|speed(?:ing)?\sup)\b|\bscal(?:es|ing)\s(?:badly|poorly)\b|\bpoor(?:ly)?\s(?:\w{1,12}\s)?scal(?:ing|es?)\b|\butil(?:ization|isation|s)?\b.{0,40}\b(?:low|less than|below|under)\b|\b(?:low|poor)\s(?:gpu\s)?util(?:ization|isation)?\b|\butil(?:ization|isation)?\s(?:is\s|of\s|remains\s|stays\s|was\s)?(?:\w{1,12}\s){0,3}~?[0-9](?:\.\d)?\s?%|\bslow(?:er|ly)?\b.{0,80}(?:\bwithout|\bno|\bnot\s(?:\w{1,12}\s){0,2}(?:with|use|using|have|has|linked|connected)(?:\s\w{1,12})?)\s(?:an?\s)?nvlink\b|\b(?:without|no)\s(?:an?\s)?nvlink\b.{0,80}\bslow|多卡.{0,30}(?:慢|没有.{0,4}(?:提升|加速|变快)|不如单卡|(?:和|与|跟)单卡差不多)|比(?:单卡|一块卡|一张卡|1卡|一卡).{0,8}慢|卡.{0,20}反而.{0,4}慢|(?:没有|并没有|没)(?:明显的?|任何)?(?:速度|性能)?的?(?:加速|提速|提升)|利用率.{0,8}(?:低|不高)|`+
		// One GPU the fastest, and more GPUs taking longer in all ("4卡并行训练时间反而接近3小时",
		// "使用2台服务器共10个GPU训练，反而比使用1个服务器5个GPU训练耗时长", "反而是1卡的时间最短").
		`\b(?:one|1|a single|single)[\s-]?(?:gpu|card)\b.{0,30}\b(?:fastest|shortest|quickest)\b|\b(?:faster|quicker)\b.{0,40}\b(?:with|using|on)\s(?:just\s|only\s)?(?:a\s)?(?:single|one|1)[\s-]?(?:gpu|card)\b|\b(?:fastest|shortest|quickest)\b.{0,30}\b(?:on|with|using)\s(?:only\s)?(?:one|1|a single|single)[\s-]?(?:gpu|card)\b|`+
		// One card said to be faster than two: "单张A100比2张A100速度快" (QwenLM/Qwen#669).
		`(?:单|一)(?:张|块|个)\s?[\w-]{0,12}\s?比\s?(?:[2-9]|两|双|多)\s?(?:张|块|个)?\s?[\w-]{0,12}\s?的?(?:速度|训练|推理)?(?:还|要|更)?快|`+
		// Two or more cards and a speed said not to rise: "为什么从rtx2060换成了双rtx3090训练速度没有提升呢"
		// (bubbliiiing/yolov4-tiny-pytorch#48).
		`(?:双|多|两|[2-9]\s?)(?:卡|张|块|显卡|rtx|gpu)[^。\n]{0,30}(?:速度|性能)[^。\n]{0,6}(?:没有|没|未|并没有|并未)(?:任何)?(?:明显)?(?:提升|提高|加快|变快|加速)|`+
		`反而.{0,30}(?:耗时|时间|用时)(?:更|还|要)?(?:长|多|久)|(?:时间|耗时|用时)反而(?:更|还|要)?(?:长|多|久|接近|超过)|(?:单卡|1\s?卡|一卡|一张卡|一块卡)的?(?:训练)?(?:时间|耗时|用时)?最(?:短|快)|`+
		// The speed a fraction of one GPU's, or said to drop, beside several
		// GPUs named ("两张卡一起推理速度就只有十分之一左右", "单机8张A100推理，发现推理速度严重变慢",
		// https://github.com/QwenLM/Qwen/issues/511).
		`(?:速度|性能|吞吐)(?:就|却|反而|也)?(?:只有|仅有|仅为|只剩|才)(?:原来的|单卡的)?(?:约|大约)?(?:[一二三四五六七八九十\d]{1,3}分之[一二三\d]|一半)|(?:速度|推理|训练)(?:速度)?(?:严重|明显|非常|很|更|反而)?变慢|`+
		// The speed said to have fallen, beside one card that is fast: "单卡速度很快，2个卡速度慢了将近一倍"
		// (DeepLink-org/dlinfer#109).
		`(?:速度|性能|吞吐量?)(?:就|却|反而|也|明显|严重)?慢了|`+
		// More GPUs no faster than fewer: "4卡...速度还不如2卡" (InternLM/lmdeploy#2346),
		// "双卡和4卡的场景中性能下降比较严重" beside a single card that is fine,
		// "TP=4 is slower than TP=2", "4 GPUs slower than 2 GPUs".
		// Not even as fast as one card, or about as fast: "8卡4090跑的，速度还没有单卡的快",
		// "训练时单卡比8卡快" (PaddlePaddle/Paddle#14690),
		// "启用了8卡来跑...速度和我用单卡跑的差不多" (kvcache-ai/ktransformers#345).
		`(?:速度|性能|吞吐量?)[^。\n]{0,8}(?:还|都|甚至|反而)?不如[^。\n]{0,4}(?:[1-8一二两三四]\s?(?:张|块)?卡|单卡|双卡)|没有?(?:单卡|单张卡|一块卡|一张卡|1\s?卡|一卡)(?:的|那么|这么)?(?:快|高)|(?:单卡|单张卡|一张卡|一块卡|1\s?卡)比(?:多卡|[2-8两双]\s?(?:张|块)?卡)(?:还|更|都|要)?快|(?:速度|性能|吞吐量?|耗时|用时)(?:和|与|跟)[^。\n]{0,6}(?:单卡|单张卡|一张卡|一块卡|1\s?卡)[^。\n]{0,6}差不多|(?:速度|性能|吞吐量?)[^。\n]{0,4}(?:严重|明显)?(?:下降|降低|变差)|甚至更慢|反而更慢|`+
		// The same in English beside several GPUs: "with two GPUs ... the speed almost halved"
		// (Lightning-AI/pytorch-lightning#5276); the speed of the run, not the
		// performance of the communication (perf.slow).
		`\b(?:speed|it/s)\s(?:\w{1,12}\s){0,3}(?:halved|dropped|drops|decreased|decreases|went down)\b|`+
		// Several GPUs said to make a run slower: "Why do multiple GPUs make
		// token processing speed slower?" (XiongjieDai/GPU-Benchmarks-on-LLM-Inference#8).
		// Slower than what was expected is a slow path (perf.slow), not this:
		// the word ends its clause.
		`\b(?:multiple|several|more|multi-?|[2-8]|two|four|eight)\s?(?:\w{1,12}\s)?(?:gpus|cards)\b.{0,50}\b(?:slower|slows?\sdown|slowed\sdown)(?:\s?[?.!,;)]|\s*$)|`+
		// The speed said not to rise: "The speed did not increase although
		// I used more GPUs" (pytorch/examples#605).
		`\b(?:speed|throughput|performance|time)\s(?:\w{1,12}\s){0,2}?(?:did|does|do|has|have|is|was|were)(?:n't|\snot)\s(?:\w{1,12}\s)?(?:increase|improve|go up|decrease)d?\b|`+
		`\bslower\b.{0,60}\bthan\b.{0,20}\b(?:with\s|using\s|on\s)?(?:[2-8]|two|four)\s?(?:x\s)?(?:gpus|cards)\b|\b(?:tp|tensor[ _-]?parallel(?:[ _-]?size)?)\s?[=:]?\s?[2-8]\b.{0,40}\b(?:slower|lower|worse)\b.{0,30}\b(?:tp|tensor[ _-]?parallel(?:[ _-]?size)?)\s?[=:]?\s?[1-8]\b`)
	// The same said without naming several GPUs, because it sets them
	// against one ("slower than one GPU", "比单卡慢").
	reScaleSelf = pattern("scaleSelf", `(?i)\bthan\b.{0,30}\b(?:one|1|a|single|the single)[\s_-]?(?:single[- ])?(?:gpu|card|device)s?\b|\b(?:on|with|using)\s(?:only\s|just\s)?(?:a\s)?(?:one|1|single)[\s-]?(?:gpu|card)\b|比(?:单卡|一块卡|一张卡|1卡|一卡)|单卡|1\s?卡`)
	// Several GPUs named: "multi-GPU", "4 GPUs", "4gpus", "the GPUs",
	// "n_gpu", "the average GPU utilization", "多卡".
	reScaleMulti = pattern("scaleMulti", `(?i)\bmulti-?\s?(?:gpus?|cards?|devices?|nodes?)\b|多机|多节点|\bgpus\b|\b(?:[2-9]|1[0-6]|two|three|four|six|eight|several|multiple|more)\s?(?:x\s)?(?:\w{1,12}\s)?(?:gpus?|cards|devices)\b|\bn_gpus?\b|\btp\s?[=:]?\s?[2-8]\b|\b(?:tp|tensor[ _-]?parallel(?:ism)?)\b|张量并行|\b(?:average|total|each|every|per|all)\s(?:gpu|card)s?\b|多卡|双卡|两卡|两张|两块|双\s?(?:rtx|gtx|tesla|\d{4})|\d{1,2}\s?(?:张|块)\s?[a-z]{1,3}\d{2,4}|多(?:块|张|个)?(?:gpu|显卡)|\d\s?卡|\d{1,2}\s?(?:个|块|张)\s?(?:卡|gpu|显卡|(?:[a-z]{1,4}\s?)?\d{2,4}\b)`)
	// PyTorch's DataParallel (not DistributedDataParallel) and MXNet's
	// kvstore: one process replicating through GPU 0, or gradients reduced
	// through the CPU, by choice of the program.
	reScaleDP = pattern("scaleDP", `(?i)(?:^|[^\w])(?:nn\.)?DataParallel\b|\bkv_?-?store\b`)
	// A time per iteration said of one GPU, and of several
	// ("3090单卡是51.82s/it", "3090双卡是124.55s/it"): the figure and its
	// unit; for several, how many (双卡 is two). Rates (it/s) are
	// reScaleRate's.
	reScaleFigOne   = pattern("scaleFigOne", `(?i)(?:单卡|一卡|单张卡|一张卡|\b(?:one|single|1)\s?(?:gpu|card)\b)[^\d\n]{0,20}?(\d{1,6}(?:\.\d+)?)\s?(s/it)\b`)
	reScaleFigMulti = pattern("scaleFigMulti", `(?i)(?:双卡|两卡|两张卡|多卡|([2-8])\s?卡|\b(two|four|eight|[2-8])\s?(?:x\s)?(?:gpu|card)s\b)[^\d\n]{0,20}?(\d{1,6}(?:\.\d+)?)\s?(s/it)\b`)
	// The time of a whole task said of one GPU and of several ("单卡推机大约7s，换成8卡之后变成了40s",
	// https://github.com/QwenLM/Qwen/issues/511): more GPUs taking longer for the same task.
	// Three digits at most, so that "3090s" is a GPU, not a time.
	reScaleSecOne   = pattern("scaleSecOne", `(?i)(?:单卡|一卡|单张卡|一张卡|\b(?:one|single|1)\s?(?:gpu|card)\b)[^\d\n]{0,20}?(\d{1,3}(?:\.\d{1,3})?)\s?(?:s|secs?|seconds?|秒)(?:[^\w/]|$)`)
	reScaleSecMulti = pattern("scaleSecMulti", `(?i)(?:双卡|两卡|两张卡|多卡|([2-8])\s?(?:张|块)?卡|\b(two|four|eight|[2-8])\s?(?:x\s)?(?:gpu|card)s\b)[^\d\n]{0,20}?(\d{1,3}(?:\.\d{1,3})?)\s?(?:s|secs?|seconds?|秒)(?:[^\w/]|$)`)
	// Rates said of two numbers of GPUs, in one line or two ("2 GPUs: 1.2 it/s",
	// "在双卡时候，训练速度是1.6steps/sec，
	// 在8卡时，训练速度是0.3-0.4steps/sec", PaddlePaddle/Paddle#37045; "Single GPU:
	// smooth 15.4 samples/second. Two GPUs: 4.5 samples/second"): the count,
	// the figure (the first of a range) and its unit.
	reScaleRate = pattern("scaleRate", `(?i)(?:(单卡|单张卡|一卡|一张卡)|(双卡|两卡|两张卡|多卡)|([1-8])\s?(?:张|块)?卡|\b(one|single|two|four|eight|[1-8])\s?(?:x\s)?(?:gpus?|cards?)\b)[^\d\n]{0,25}?(\d{1,6}(?:\.\d+)?)(?:\s?[-~]\s?\d{1,6}(?:\.\d+)?)?\s?(it/s|steps?/s(?:ec)?|samples?/s(?:ec(?:ond)?)?|tokens?/s|tok/s|img/s|images?/s)\b`)
	// Only one of several GPUs used: "the server only uses one GPU out of
	// four" (ollama/ollama#12768), "only one GPU is used" (#8546), "it
	// indicates I am only using one GPU of the four" (mfem/mfem#3129), "the
	// third card is not used at all", "模型并没有加载到两张卡上"
	// (InternLM/lmdeploy#1059), "only gpu0 is utilization,the utilization
	// rate of other gpu is 0" (tteepe/GaitGraph#3), "only one GPU is running
	// while the other one is not working" (openmm/openmm#3927), "一直用的是第一张卡"
	// (chatchat-space/Langchain-Chatchat#1192), "两个模型都使用0卡，1卡空闲"
	// (#3301), "显示仅单卡运行" (#3202), "好像只有一张被占用"
	// (TMElyralab/MuseTalk#217). A program that places a model on one GPU
	// when it fits, a split that runs the GPUs in turn, a setting not passed
	// or a rank-to-GPU mapping: the launch, not the link. "I only use one
	// GPU" is how a run was made to work, and is not read.
	reOneUsed = pattern("oneUsed", `(?i)\bonly\s(?:uses|utili[sz]es|loads|runs on)\s(?:\w{1,12}\s){0,2}?(?:one|1|a single|single|the first|gpu\s?0|gpu:0|cuda:0)\b|`+
		`\b(?:is|are|was|were|been|am|it|it's)\s(?:\w{1,12}\s)?only\s(?:using|use|uses|utili[sz]ing|loading|running on)\s(?:\w{1,12}\s){0,2}?(?:one|1|a single|single|the first|gpu\s?0|gpu:0|cuda:0)\b|`+
		`\bonly\s(?:one|1|a single|the first)\s(?:gpu|card|device)\s(?:\w{1,12}\s)?(?:is|was|gets?|got)\s(?:being\s)?(?:used|utili[sz]ed|loaded|busy|active|running|working)\b|\bonly\sgpu\s?0\s(?:is|was)\s(?:being\s)?used\b|`+
		// "whisper cpp use only one gpu card" (ggml-org/whisper.cpp#1775).
		// The clause ends there: "when using only one gpu and two" sets one
		// against two (vllm-project/vllm#7645).
		`\b(?:uses?|using|utili[sz]es?|utili[sz]ing|runs? on|loads?)\sonly\s(?:one|1|a single|single|the first)\s(?:gpu|card|device)(?:\scards?)?\s*(?:[.,;!)]|$|\s(?:even|although|though|while|but|instead|for|to)\b)|`+
		// "I set num-gpus is 2, but only one GPU work"
		// (facebookresearch/detectron2#1303).
		`\bonly\s(?:one|1|a single|the first)\s(?:gpu|card|device)\s(?:works?|working|runs?|running)\b|`+
		`\b(?:other|second|third|fourth|remaining|rest of the)\s(?:\w{1,12}\s)?(?:gpus?|cards?)\s(?:\w{1,12}\s){0,3}?(?:is|are|was|were|stays?|remains?|sits?)\s(?:\w{1,12}\s)?(?:idle|unused|not\s(?:being\s)?used|never used)\b|`+
		`\bonly\s(?:gpu\s?0|gpu:0|cuda:0|the first gpu)\s(?:is|was)\s(?:being\s)?(?:busy|active|utili[sz](?:ed|ation))\b|`+
		`\butili[sz]ation(?:\srate)?\s(?:of\s)?(?:the\s)?(?:other|remaining|rest of the)\s(?:\w{1,12}\s)?(?:gpus?|cards?)\s(?:is|are|was|were|stays?|remains?)\s(?:at\s)?0\b|`+
		// A GPU chosen and not used: "it's always GPU 0 that gets used"
		// (DeepLabCut/DeepLabCut#2312), "always uses cuda:0"
		// (suno-ai/bark#220), "still defaults to cuda:0"
		// (graphdeco-inria/gaussian-splatting#894). The verb is the
		// program's ("uses", not "I always use GPU 0").
		`\b(?:always|still)\s(?:only\s)?(?:uses|using|runs\son|running\son|loads\s(?:on|onto|to)|defaults\sto|goes\sto)\s(?:my\s|the\s)?(?:first\sgpu|gpu\s?#?0|gpu:0|cuda:0|device\s?0)\b|`+
		`\b(?:always|still)\s(?:the\s)?(?:first\sgpu|gpu\s?#?0|gpu:0|cuda:0|device\s?0)\s(?:that\s|which\s)?(?:is|gets|was|got)\s(?:being\s)?used\b|`+
		`\b(?:gpu\s?#?0|gpu:0|cuda:0|the first gpu)\s(?:is|was|gets)\s(?:always|still)\s(?:being\s)?used\b|`+
		// The program said not to use both or the other: "STK does not use
		// both of the GPUs on my GTX 295" (supertuxkart/stk-code#2756), "is
		// not utilizing both the gpus" (bmaltais/kohya_ss#1915). The verb
		// is the program's: "I do not use both" is not read.
		`\b(?:does\s?(?:not|n't)|doesnt|wo(?:n't|nt)|will not|is\s?(?:not|n't)|isnt)\s(?:\w{1,12}\s)?(?:use|using|utili[sz]e|utili[sz]ing|run on|running on|load on|loading on)\s(?:both|the second|the other)\s(?:of\s)?(?:the\s|my\s|its\s)?(?:\w{1,12}\s)?(?:gpus?|cards?|devices?)\b|`+
		// "just the first gpu is in use" (ray-project/ray#10002).
		`\b(?:only|just)\s(?:the first|one|1|a single)\s(?:gpu|card|device)\s(?:is|was)\s(?:in use|being used)\b|\b(?:only|just)\s(?:gpu\s?0|gpu:0|cuda:0)\s(?:is|was)\s(?:in use|being used)\b|`+
		`\bnot (?:being )?used at all\b|只(?:会|能)?(?:用|使用|占用|调用)了?(?:其中)?(?:的)?(?:一张|一块|一个|单|1张|1块)(?:显)?卡|(?:没有|没|不会)(?:切分|拆分|加载|分配|分布)(?:模型)?到(?:两|多|2|4|8)(?:张|块)?(?:显)?卡|`+
		`(?:一直|始终|总是|都)(?:只)?(?:用|使用|占用|跑在)(?:的是)?(?:第一张|第一块|0号|第0张|0)(?:显)?卡|(?:[1-7]\s?号?|其他|其余|另外)的?(?:显)?卡(?:都|一直)?(?:是)?(?:空闲|闲置)|(?:仅|只有)(?:单卡|一张|一块)(?:显)?卡?(?:在)?(?:运行|跑|工作|被占用|被使用)|`+
		// "显存还是只加载到第一张卡上" (modelscope/ms-swift#3363).
		`只(?:会|能)?(?:加载|分配|放)(?:到|在)了?(?:第一张|第一块|0号|第0张|0|一张|一块|单)(?:显)?卡|`+
		// Support for several GPUs asked of the program: it runs on one.
		// "also add dual GPU support? ( I have 2 RTX 3060's )"
		// (lllyasviel/Fooocus#3388), "if it supports or has plans to
		// support multi GPU" (EricLBuehler/mistral.rs#617), "Is there a way
		// to enable multi-GPU?" (Stability-AI/generative-models#396), "Do you
		// support multi-card training?" (huggingface/lerobot#2054).
		`\b(?:add|adding|plans?\sto|planning\sto|roadmap\sto)\s(?:\w{1,12}\s){0,2}?(?:dual|multi|multiple|several|more than one)[- ]?(?:gpus?|gpu's|cards?)\s?support\b|`+
		`\b(?:plans?|planning|plan on)\sto\ssupport\s(?:for\s)?(?:dual|multi|multiple|several|more than one)[- ]?(?:gpus?|gpu's|cards?|card\straining)\b|`+
		`\b(?:does|do|will|can|could)\s(?:\w{1,20}\s){0,3}?support\s(?:for\s)?(?:dual|multi|multiple|several|more than one)[- ]?(?:gpus?|gpu's|cards?)(?:\s(?:\w{1,12}\s)?(?:training|inference))?\s?\?|`+
		// SLI, the graphics mode of several cards that CUDA work does not
		// use: "does BlenderProc support SLI mode?" (DLR-RM/BlenderProc#490).
		`\b(?:does|do|will|can|could)\s(?:\w{1,20}\s){0,3}?support\s(?:for\s)?(?:the\s)?SLI\b|`+
		`\bis there (?:a|an|any) (?:way|option) to (?:enable|use|support|run (?:it )?on) (?:dual|multi|multiple|several|more than one)[- ]?(?:gpus?|gpu's|cards?)\b|`+
		`(?:是否|能否|能不能|可不可以|会不会|有没有计划|计划)支持多(?:卡|张卡|块卡|个GPU|块GPU|GPU|显卡)|支持多(?:卡|GPU)(?:训练|推理)?(?:吗|么)`)
	// "not slower": the denial.
	reScaleNot = pattern("scaleNot", `(?i)(?:\bnot|\bnever|\bno longer|n't)\s(?:\w{1,12}\s)?slower\b`)
	// DataParallel or the kvstore said on a line that says slow or low
	// utilization ("Data Parallel slows things down", "Low running speed
	// when run with kv-store").
	reScaleDPSlow = pattern("scaleDPSlow", `(?i)\bslow(?:er|ly|s\sdown|ed\sdown|\sdown)?\b|\b(?:low|poor|bad)\s(?:\w{1,12}\s)?(?:speed|performance|throughput|utilization)\b|\bspeed\s(?:\w{1,12}\s){0,2}(?:declines?|drops?|is\slow)\b|慢`)
)

// Training said or shown to end elsewhere on several GPUs than on one: a
// lower accuracy, a higher loss, no convergence ("单卡第一个epoch完成后准确度大约94，
// 8卡第一个epoch完成后准确度大约86", PaddlePaddle/Paddle#43493; "多卡训练掉点";
// "the accuracy is much lower with 4 GPUs"). Data parallelism keeps the batch
// per GPU, so the global batch grows with the GPUs and an epoch takes fewer
// steps at the same learning rate: the answer in those threads, not data
// garbled between the GPUs. Said of the model's quality, not of its speed
// (reMetricSpeed).
var (
	reMetricSaid = pattern("metricSaid", `(?i)\b(?:accuracy|acc|map|miou|f1|bleu|wer|cer|perplexity|ppl|top-?1|psnr|auc|loss(?:es)?|metrics?|scores?|results?)\b[^.\n]{0,60}?\b(?:lower|worse|higher|drops?|dropped|dropping|decreas(?:e|es|ed|ing)|degrad(?:e|es|ed|ation|ing)|not as good)\b[^.\n]{0,60}?\b(?:multi-?\s?gpus?|multiple gpus|several gpus|more gpus|(?:[2-9]|two|four|eight)\s?(?:x\s)?gpus|ddp|distributed training|data[\s-]parallel)\b|`+
		`\b(?:multi-?\s?gpus?|multiple gpus|several gpus|more gpus|(?:[2-9]|two|four|eight)\s?(?:x\s)?gpus|ddp|distributed training)\b[^.\n]{0,60}?\b(?:lower|worse|drops? in|decreased|degraded|reduced|poor(?:er)?)\s(?:\w{1,12}\s)?(?:accuracy|acc|map|miou|f1|bleu|results|metrics|scores|convergence)\b|`+
		// "multi-gpu training is less accurate than single-gpu training"
		// (huggingface/accelerate#2903).
		`\b(?:multi-?\s?gpus?|multiple gpus|several gpus|(?:[2-9]|two|four|eight)\s?gpus|ddp|distributed)\b[^.\n]{0,30}?\bless (?:accurate|precise)\b|`+
		// One GPU and several set side by side, and the model's quality said
		// to differ: "同样的模型单卡训练和双卡训练12个epochs测试精度有很大区别" (csuhan/ReDet#79).
		`\b(?:single|one|1)[\s-]?gpu\b[^.\n]{0,30}?\b(?:multi-?\s?gpus?|multiple gpus|(?:[2-9]|two|four|eight)\s?gpus)\b[^.\n]{0,40}?\b(?:accuracy|acc|map|miou|loss|metrics?)\b[^.\n]{0,20}?\b(?:differ\w{0,4}|gap)\b|`+
		`(?:单卡|单张卡|一张卡|单gpu)[^。\n]{0,20}(?:多卡|双卡|两卡|[2-9]\s?卡|多gpu|双gpu)`+zhMetricDiffers+`|`+
		`(?:多卡|双卡|两卡|[2-9]\s?卡|多gpu|双gpu)[^。\n]{0,20}(?:单卡|单张卡|一张卡|单gpu)`+zhMetricDiffers+`|`+
		// Better on one GPU: "the val mAp is higher using 1 Gpu" (RangiLyu/nanodet#392).
		`\b(?:accuracy|acc|map|miou|f1|bleu|top-?1|psnr|auc|metrics?|scores?|results?)\b[^.\n]{0,40}?\b(?:higher|better)\b[^.\n]{0,30}?\b(?:with|using|on)\s(?:a\s|only\s|just\s)?(?:1|one|single)\s?(?:gpu|card)\b|`+
		`(?:\bdoes(?:n't| not)|\bdid(?:n't| not)|\bnever|\bfails? to|\bwon't|\bcan't|\bcannot)\s(?:\w{1,12}\s)?converge\b[^.\n]{0,60}?\b(?:multi-?\s?gpus?|multiple gpus|(?:[2-9]|two|four|eight)\s?gpus|ddp)\b|`+
		`\b(?:multi-?\s?gpus?|multiple gpus|(?:[2-9]|two|four|eight)\s?gpus|ddp)\b[^.\n]{0,60}?(?:\bdoes(?:n't| not)|\bdid(?:n't| not)|\bnever|\bfails? to|\bwon't|\bcan't|\bcannot|\bslower to)\s(?:\w{1,12}\s)?converge\b|`+
		`(?:多卡|双卡|两卡|[2-9]\s?(?:张|块)?卡|多(?:块|张)?(?:gpu|显卡)|双gpu|多机)[^。\n]{0,40}(?:准确率|准确度|正确率|精度|指标|效果|acc|map|miou)[^。\n]{0,12}(?:下降|降低|变差|差|低|不如|掉|不一样|不一致)|`+
		`(?:多卡|双卡|两卡|[2-9]\s?(?:张|块)?卡|多(?:块|张)?(?:gpu|显卡)|双gpu|多机)[^。\n]{0,40}(?:loss|损失)[^。\n]{0,12}(?:不下降|不降|降不下|高|不收敛|不一样|不一致|变大|上升)|`+
		`(?:多卡|双卡|两卡|[2-9]\s?(?:张|块)?卡|多(?:块|张)?(?:gpu|显卡)|双gpu)[^。\n]{0,30}(?:掉点|不收敛|收敛(?:变|更)?慢|难以收敛)|`+
		`(?:准确率|准确度|正确率|精度|指标|效果|acc|map|loss|损失)[^。\n]{0,10}比(?:单卡|单张卡|一张卡|一块卡|1\s?卡)[^。\n]{0,6}(?:低|差|高)`)
	// A figure of the model's quality said of one GPU and of several, on one
	// line or two ("单GPU:{'loss': 0.0002, ...}", "双GPU:{'loss': ...}",
	// QwenLM/Qwen#669; "Single GPU: accuracy 94.2").
	reMetricOne  = pattern("metricOne", `(?i)(?:单卡|单张卡|一张卡|一块卡|单gpu|\b1\s?卡|\b(?:single|one|1)\s?(?:gpu|card)\b)`+metricFigure)
	reMetricMany = pattern("metricMany", `(?i)(?:多卡|双卡|两卡|两张卡|双gpu|多gpu|\b[2-9]\s?(?:张|块)?卡|\b(?:[2-9]|two|four|eight)\s?(?:x\s)?(?:gpus|cards)\b|\bmulti-?\s?gpus?\b)`+metricFigure)
	// The steps of an epoch said not to fall with more GPUs, or every rank
	// said to read the whole dataset ("on increasing the number of gpus and
	// nodes, the number of steps for each epoch doesnot change",
	// zdou0830/METER#30, whose distributed sampler was commented out): each
	// rank trains on all the data, not its share. Beside several GPUs named
	// (reScaleMulti).
	reMetricSteps = pattern("metricSteps", `(?i)\b(?:steps|iterations|iters|batches)\b[^.\n]{0,30}?(?:\bdoes(?:n't| ?not)|\bdid(?:n't| not)|\bis not|\bisn't|\bnever)\s(?:\w{1,12}\s)?(?:change|decrease|go down|drop|shrink)\b|\b(?:steps|iterations|iters|batches)\s(?:per|for each|in each|in an?|of an?|each)\sepoch\s(?:is|are|stays?|remains?|was|were)\s(?:\w{1,12}\s)?(?:the same|unchanged)\b|\b(?:each|every|all)\s(?:gpus?|ranks?|process(?:es)?|workers?)\s(?:\w{1,12}\s)?(?:processes|process|trains? on|sees?|gets?|loads?|reads?|iterates? (?:over|through))\s(?:the\s)?(?:whole|full|entire|same|complete)\s(?:\w{1,12}\s)?(?:dataset|data|epoch)\b|(?:步数|迭代次数|iter数|batch数)[^。\n]{0,10}(?:没有?变|不变|一样|相同)|每(?:张|块|个)(?:卡|gpu|进程)[^。\n]{0,10}(?:全部|全量|整个|完整的?)数据`)
	// Said of the speed: a slow run (scaling's reader), not its quality.
	reMetricSpeed = pattern("metricSpeed", `(?i)\b(?:speed|throughput|it/s|s/it|slow(?:er)?|faster|latency|time)\b|速度|耗时|时间|慢|快`)
)

// metricFigure is a figure of the model's quality after the GPUs a line
// names: the measure, then its value (reMetricOne, reMetricMany).
const metricFigure = `[^\n]{0,40}?(?:准确率|准确度|正确率|精度|\bacc(?:uracy)?|\bmap|\bmiou|\bf1|\bbleu|\bloss|损失|\btop-?1)\W{0,4}(?:(?:大约|约|为|是|of|is|was|about|around|~)\W{0,2}){0,2}\d{1,3}(?:\.\d+)?`

// zhMetricDiffers is the model's quality said in Chinese to differ, after
// one GPU and several are named (reMetricSaid).
const zhMetricDiffers = `[^。\n]{0,30}(?:准确率|准确度|正确率|精度|指标|效果|acc|map|loss|损失)[^。\n]{0,12}(?:区别|差别|差异|不同|不一样|不一致|差距)`

// metricQualityWords are the words, as written, one of which every match of
// reMetricSaid, reMetricOne and reMetricMany holds: what measures the model.
var metricQualityWords = []string{"acc", "Acc", "ACC", "map", "mAP", "mAp", "MAP", "Map", "miou", "mIoU", "MIOU", "mIOU", "f1", "F1", "bleu", "BLEU", "Bleu", "wer", "WER", "cer", "CER",
	"perplexity", "Perplexity", "ppl", "PPL", "top-1", "top1", "Top-1", "Top1", "psnr", "PSNR", "auc", "AUC", "loss", "Loss", "LOSS", "metric", "Metric", "score", "Score", "result", "Result",
	"converge", "Converge", "准确", "正确率", "精度", "指标", "效果", "损失", "收敛", "掉点"}

// metricStepsWords are the words, as written, one of which every match of
// reMetricSteps holds.
var metricStepsWords = []string{"change", "Change", "CHANGE", "decrease", "go down", "drop", "shrink", "unchanged", "whole", "full", "entire", "same", "complete",
	"没变", "没有变", "不变", "一样", "相同", "数据"}

// metricTriggerWords wake the reader (prefilter.go): the words of a change
// every said form holds, those of metricStepsWords, and the GPUs counted as
// the figures of one GPU and of several say them. Not "GPUs" alone, which
// CUDA's own "do you have enough GPUs?" repeats on every rank's line.
var metricTriggerWords = append([]string{"lower", "Lower", "worse", "Worse", "higher", "Higher", "better", "Better", "drop", "Drop", "decreas", "Decreas", "degrad", "Degrad", "not as good",
	"less accurate", "less precise", "reduced", "poor", "Poor", "converge", "Converge", "differ", "Differ", "gap",
	"降", "差", "低", "不如", "掉", "不一样", "不一致", "高", "收敛", "变大", "上升", "区别", "不同",
	"single GPU", "single gpu", "Single GPU", "Single gpu", "one GPU", "one gpu", "One GPU", "1 GPU", "1 gpu", "1GPU", "1gpu", "single card", "one card",
	"2 GPUs", "3 GPUs", "4 GPUs", "5 GPUs", "6 GPUs", "7 GPUs", "8 GPUs", "9 GPUs", "2 gpus", "3 gpus", "4 gpus", "5 gpus", "6 gpus", "7 gpus", "8 gpus", "9 gpus",
	"2GPUs", "4GPUs", "8GPUs", "2gpus", "4gpus", "8gpus", "two GPUs", "two gpus", "four GPUs", "four gpus", "eight GPUs", "eight gpus", "2 cards", "4 cards", "8 cards", "two cards",
	"multi-GPU", "multi-gpu", "Multi-GPU", "Multi-gpu", "multi GPU", "multi gpu", "Multi GPU", "multigpu", "MultiGPU", "multiGPU", "卡", "单gpu", "单GPU", "双gpu", "双GPU", "多gpu", "多GPU"},
	metricStepsWords...)

// metricWords are the words, as written, one of which every match of
// reMetricSaid, reMetricOne and reMetricMany holds: the GPUs counted.
var metricWords = []string{"steps", "Steps", "iterations", "Iterations", "iters", "batches", "步数", "迭代次数", "数据", "GPUs", "gpus", "Gpus", "GPUS", "multi-GPU", "multi-gpu", "Multi-GPU", "Multi-gpu", "multi GPU", "multi gpu", "Multi GPU", "multigpu", "MultiGPU", "multiGPU",
	"single GPU", "single gpu", "Single GPU", "Single gpu", "one GPU", "one gpu", "One GPU", "1 GPU", "1 gpu", "1GPU", "1gpu", "single card", "one card", "cards", "Cards",
	"DDP", "ddp", "istributed training", "ata parallel", "ata-parallel", "卡", "单gpu", "单GPU", "双gpu", "双GPU", "多gpu", "多GPU", "多显卡", "多块显卡", "多张显卡", "多机"}

// Several ranks or processes on one GPU, said in words, or NCCL's refusal.
var (
	reSameGPU = pattern("sameGPU", `(?i)\b(?:two|2|3|4|multiple|several|many|more than one|both)\s(?:\w{1,20}\s){0,2}(?:ranks?|processes|procs|workers|instances|jobs|replicas|pods|tasks|containers)\s(?:\w{1,12}\s){0,3}(?:on|to|share|sharing|using|use|in|into)\s(?:the\s)?(?:same|one|single|a single|1)\s(?:\w{1,12}\s)?(?:gpu|device|card)s?\b|\b(?:[2-9]|two|multiple|several)\s(?:ranks|processes|procs|workers)\sper\s(?:gpu|device|card)\b|\branks?\b.{0,60}\bsame\s(?:gpu|cuda device|device|card)\b|Duplicate GPU detected : rank \d+ and rank \d+ both on|多个(?:进程|rank).{0,10}(?:同一|一)(?:张|块|个)?(?:卡|gpu|显卡)|`+
		// "分配gpu都分配到同一张卡了" (wenet-e2e/wenet#2010).
		`(?:都|全部|全都)(?:被)?(?:分配|跑|加载|放|用)(?:到|在)了?同一(?:张|块|个)(?:显)?(?:卡|gpu|GPU)`)
	reSameGPUNot = pattern("sameGPUNot", `(?i)\b(?:not|never|no|without|avoid|instead of)\s(?:\w{1,12}\s){0,3}(?:the\s)?(?:same|one|single)\s(?:\w{1,12}\s)?(?:gpu|device|card)`)
	// NCCL's set-up line of a rank: host, pid, rank, nranks, busId and,
	// from 2.18 on, commId ("ncclCommInitRank comm 0x... rank 1 nranks 2
	// cudaDev 1 nvmlDev 1 busId 70 commId 0x... - Init START").
	reRankDev = pattern("rankDev", `([\w.-]+):(\d+):\d+ \[\d+\] NCCL INFO (?:\w+ )?comm 0x[0-9a-f]+ rank (\d+) nranks (\d+) cudaDev \d+ (?:nvmlDev \d+ )?busId ([0-9a-f]+)(?: commId (0x[0-9a-f]+))?`)
)

// sameGPUWords are the words, as written, one of which every match of
// reSameGPU or reRankDev holds.
var sameGPUWords = []string{"same", "Same", "SAME", "one GPU", "one gpu", "one card", "single GPU", "single gpu", "a GPU", "per GPU", "per gpu", "per device", "per card",
	"1 GPU", "1 gpu", "one device", "Duplicate GPU", "同一", "一张卡", "一块卡", "busId "}

// maxRankDevs bounds the set-up lines kept to compare (a log of thousands
// of ranks needs only a pair).
const maxRankDevs = 256

// rankDev is a rank's GPU as one set-up line of NCCL gives it.
type rankDev struct {
	hostBus, pid, rank, nranks, comm string
}

// scaleWords are the words, as written, one of which every match of
// reScaleFail, reScaleDP and reScaleDPSlow holds: the words of slowness, speed-up, scaling
// and utilization, rare in NCCL's own lines.
var scaleWords = []string{"比2张", "比两张", "比双", "比多张", "比4张", "比8张", "similar", "comparable", "the same", "slow", "Slow", "SLOW", "faster", "Faster", "FASTER", "quicker", "peeding up", "peedup", "peed-up", "peed up", "PEEDUP", "scal", "Scal", "SCAL", "util", "Util", "UTIL",
	"s/it", "it/s", "steps/s", "step/s", "samples/s", "sample/s", "tokens/s", "token/s", "tok/s", "img/s", "images/s", "longer", "Longer", "more time", "more hours", "more seconds", "more minutes", "improvement", "gain", "increase",
	"halved", "dropped", "drops", "decreased", "decreases", "decrease", "improve", "go up", "went down", "慢", "加速", "提速", "提升", "变快", "单卡", "利用率", "反而", "最短", "最快", "分之", "一半", "不如", "下降", "降低", "变差", "lower", "worse", "fastest", "Fastest", "shortest", "Shortest", "quickest",
	"DataParallel", "Dataparallel", "dataparallel", "dataParallel", "DATAPARALLEL", "kvstore", "KVStore", "kvStore", "KVstore", "Kvstore", "KVSTORE", "kv_store", "kv-store", "KV_STORE"}

// oneUsedWords are the words, as written, one of which every match of
// reOneUsed holds.
var oneUsedWords = []string{"always", "Always", "still", "Still", "support", "Support", "支持", "way to", "option to", "只加载", "只分配", "只放", "只会加载", "只能加载", "只会分配", "只能分配", "只会放", "只能放", "only", "Only", "ONLY", "just", "Just", "used at all", "not used", "not being used", "unused", "idle", "Idle", "tilization", "tilisation", "TILIZATION", "只用", "只使用", "只会", "只能", "只占用", "只调用", "加载到", "分配到", "分布到", "切分", "拆分", "模型到",
	"第一张", "第一块", "0号", "第0张", "0卡", "0显卡", "空闲", "闲置", "仅", "只有", "both", "Both", "BOTH", "the second", "the other"}

// scaling is the state of this reader.
type scaling struct {
	fail       event    // a line that says several GPUs are no faster than one
	metric     event    // a line that says or shows training ends elsewhere on several GPUs than on one
	metricOne  bool     // a figure of the model's quality said of one GPU
	metricMany bool     // the same said of several
	dp         bool     // the paste names DataParallel or the kvstore
	same       event    // a line that says, or shows, several ranks on one GPU
	from       string   // who tells same: NCCL or a description
	one        figure   // the time or rate per iteration said of one GPU
	many       figure   // the same said of several, and how many
	rates      []figure // rates said with their number of GPUs (reScaleRate), at most maxRates
	devs       []rankDev
	read       map[string]bool // NCCL's lines read, which repeated tell nothing new (see done)
}

// figure is a time (s, s/it) or a rate (it/s, /s) on gpus GPUs.
type figure struct {
	value float64
	unit  string
	gpus  int
}

// slowerThan says whether f, a time on several GPUs, is slower than one
// GPU's time one whatever the batch: more than gpus times the time per
// iteration.
func (f figure) slowerThan(one figure) bool {
	switch {
	case f.unit != one.unit || f.gpus < 2:
		return false
	case f.unit == "s":
		// A whole task: longer on several GPUs, by more than noise.
		return f.value > one.value*1.2
	}
	return f.value > one.value*float64(f.gpus)
}

// scaleFigures reads a time or rate per iteration said of one GPU or of
// several; once both are known, several GPUs slower than one whatever the
// batch say no speed-up, at the second line.
func (x *Extractor) scaleFigures(s string, n int, raw string) {
	c := &x.scale
	if c.one.unit == "" {
		if m := reScaleFigOne.FindStringSubmatch(s); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			c.one = figure{v, strings.ToLower(m[2]), 1}
		} else if m := reScaleSecOne.FindStringSubmatch(s); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			c.one = figure{v, "s", 1}
		}
	}
	if c.many.unit == "" {
		if m := reScaleFigMulti.FindStringSubmatch(s); m != nil {
			v, _ := strconv.ParseFloat(m[3], 64)
			c.many = figure{v, strings.ToLower(m[4]), gpuCount(m[1] + m[2])}
		} else if m := reScaleSecMulti.FindStringSubmatch(s); m != nil {
			v, _ := strconv.ParseFloat(m[3], 64)
			c.many = figure{v, "s", gpuCount(m[1] + m[2])}
		}
	}
	if c.one.unit != "" && c.many.slowerThan(c.one) {
		c.fail.mark(n, raw)
	}
	for _, m := range reScaleRate.FindAllStringSubmatch(s, maxRates) {
		if len(c.rates) >= maxRates {
			break
		}
		v, _ := strconv.ParseFloat(m[5], 64)
		f := figure{v, rateUnit(m[6]), rateGPUs(m)}
		for _, o := range c.rates {
			if f.fewerFaster(o) || o.fewerFaster(f) {
				c.fail.mark(n, raw)
				return
			}
		}
		c.rates = append(c.rates, f)
	}
}

// maxRates bounds the rates kept to compare: a few suffice.
const maxRates = 8

// rateUnit is "it/s" for a rate of iterations or steps, which on more GPUs
// each carry more data, and "/s" for a rate of samples, tokens or images.
func rateUnit(u string) string {
	u = strings.ToLower(u)
	if strings.HasPrefix(u, "it") || strings.HasPrefix(u, "step") {
		return "it/s"
	}
	return "/s"
}

// rateGPUs is the number of GPUs a reScaleRate match names.
func rateGPUs(m []string) int {
	switch {
	case m[1] != "":
		return 1
	case m[2] != "":
		return 2
	case m[3] != "":
		n, _ := strconv.Atoi(m[3])
		return n
	case strings.EqualFold(m[4], "one") || strings.EqualFold(m[4], "single"):
		return 1
	}
	return gpuCount(m[4])
}

// fewerFaster says whether rate f, said of fewer GPUs than rate o, does
// more than o: more samples a second, or more iterations a second than o's
// scaled by the ratio of GPUs (each iteration on more GPUs carrying that
// much more data when the batch per GPU is kept).
func (f figure) fewerFaster(o figure) bool {
	switch {
	case f.unit != o.unit || f.gpus < 1 || o.gpus <= f.gpus:
		return false
	case f.unit == "/s":
		return o.value < f.value
	}
	return o.value*float64(o.gpus)/float64(f.gpus) < f.value
}

// gpuCount is the number of GPUs a figure is said of: a digit or a word,
// and two for 双卡, 两卡 or 多卡.
func gpuCount(said string) int {
	switch strings.ToLower(said) {
	case "four":
		return 4
	case "eight":
		return 8
	case "", "two":
		return 2
	}
	n, _ := strconv.Atoi(said)
	return n
}

// scalingLine reads stripped line s.
func (x *Extractor) scalingLine(s string, n int, raw string) {
	c := &x.scale
	if x.woke(1<<sameGPU) && !c.same.set && containsAny(raw, sameGPUWords...) {
		x.sameGPULine(s, n, raw)
	}
	if x.woke(1<<proseScaling) && !c.fail.set && containsAny(s, oneUsedWords...) && !strings.Contains(s, "NCCL INFO") && reOneUsed.MatchString(s) {
		c.fail.mark(n, raw)
	}
	if !c.metric.set && !strings.Contains(s, "NCCL INFO") && containsAny(s, metricWords...) {
		x.metricLine(s, n, raw)
	}
	if c.fail.set && c.dp || !x.woke(1<<proseScaling) || !containsAny(s, scaleWords...) || strings.Contains(s, "NCCL INFO") {
		return
	}
	dp := reScaleDP.MatchString(s)
	c.dp = c.dp || dp
	if c.fail.set || reScaleNot.MatchString(s) {
		return
	}
	x.scaleFigures(s, n, raw)
	if reScaleFail.MatchString(s) && (dp || reScaleSelf.MatchString(s) || reScaleMulti.MatchString(s)) || dp && reScaleDPSlow.MatchString(s) {
		c.fail.mark(n, raw)
	}
}

// metricLine reads training said or shown to end elsewhere on several GPUs
// than on one in line s: said, or a figure of one GPU and one of several,
// on this line or an earlier one.
func (x *Extractor) metricLine(s string, n int, raw string) {
	c := &x.scale
	// The patterns are long: a line must name what they measure first.
	quality, steps := containsAny(s, metricQualityWords...), containsAny(s, metricStepsWords...)
	if quality && reMetricSaid.MatchString(s) && !reMetricSpeed.MatchString(s) || steps && reMetricSteps.MatchString(s) && reScaleMulti.MatchString(s) {
		c.metric.mark(n, raw)
		return
	}
	if !quality {
		return
	}
	c.metricOne = c.metricOne || reMetricOne.MatchString(s)
	c.metricMany = c.metricMany || reMetricMany.MatchString(s)
	if c.metricOne && c.metricMany {
		c.metric.mark(n, raw)
	}
}

// sameGPULine reads several ranks on one GPU in line s, or in raw, NCCL's
// set-up line whose prefix Strip removed: two ranks of one host on the
// same busId, of one communicator (the same commId) or, before NCCL
// printed commId, of two processes.
func (x *Extractor) sameGPULine(s string, n int, raw string) {
	c := &x.scale
	if !strings.Contains(s, "NCCL INFO") {
		if reSameGPU.MatchString(s) && !reSameGPUNot.MatchString(s) {
			c.same.mark(n, raw)
			c.from = Said
		}
		return
	}
	// A line read before tells nothing new; past maxRankDevs lines the
	// reader stops, as the prefilter does (see done).
	if c.read[raw] || len(c.read) >= maxRankDevs {
		return
	}
	if c.read == nil {
		c.read = map[string]bool{}
	}
	c.read[raw] = true
	m := reRankDev.FindStringSubmatch(raw)
	if m == nil {
		return
	}
	d := rankDev{hostBus: m[1] + " " + m[5], pid: m[2], rank: m[3], nranks: m[4], comm: m[6]}
	for _, o := range c.devs {
		if o.hostBus == d.hostBus && o.rank != d.rank && o.nranks == d.nranks &&
			(d.comm != "" && o.comm == d.comm || d.comm == "" && o.comm == "" && o.pid != d.pid) {
			c.same.mark(n, raw)
			c.from = "NCCL"
			return
		}
	}
	c.devs = append(c.devs, d)
}

// scalingFacts gives the reader's fact once the input ends: with
// DataParallel or the kvstore named, the program's choice is the likely
// answer whatever else the paste shows; without, the words alone answer
// only a paste in which nothing else is known (see Weak).
func (x *Extractor) scalingFacts() {
	c := &x.scale
	x.setEvent("ranks.same_gpu", "bool", "true", 1, c.same, c.from)
	x.setEvent("train.metric_by_gpus", "bool", "true", 1, c.metric, Said)
	if c.dp {
		x.setEvent("perf.dataparallel", "bool", "true", 1, c.fail, Said)
	} else {
		x.setEvent("perf.no_speedup", "bool", "true", 1, c.fail, Said)
	}
}
