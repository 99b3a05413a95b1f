//! The chapters' words in English and Japanese, compiled from their story files (`stories/ID.yaml`) by
//! `nodeline::story::generate`: every `cargo xtask` command writes this file when a chapter's
//! file changes (so does `NODELINE_BLESS=1 cargo test --test it chapters::`). Edit the story
//! file, not this one.

use super::{ChapterText, Lang, StepText};
use crate::sim::Chapter;

/// The chapter's title, summary and steps in `lang`.
pub(super) fn chapter(lang: Lang, chapter: Chapter) -> &'static ChapterText {
    match (lang, chapter) {
        (Lang::En, Chapter::Registration) => &REGISTRATION_EN,
        (Lang::Ja, Chapter::Registration) => &REGISTRATION_JA,
        (Lang::En, Chapter::NodeFailure) => &NODE_FAILURE_EN,
        (Lang::Ja, Chapter::NodeFailure) => &NODE_FAILURE_JA,
        (Lang::En, Chapter::KubeletRestart) => &KUBELET_RESTART_EN,
        (Lang::Ja, Chapter::KubeletRestart) => &KUBELET_RESTART_JA,
        (Lang::En, Chapter::ZoneOutage) => &ZONE_OUTAGE_EN,
        (Lang::Ja, Chapter::ZoneOutage) => &ZONE_OUTAGE_JA,
        (Lang::En, Chapter::Maintenance) => &MAINTENANCE_EN,
        (Lang::Ja, Chapter::Maintenance) => &MAINTENANCE_JA,
        (Lang::En, Chapter::NodeGoesAway) => &NODE_GOES_AWAY_EN,
        (Lang::Ja, Chapter::NodeGoesAway) => &NODE_GOES_AWAY_JA,
    }
}

static REGISTRATION_EN: ChapterText = ChapterText {
    title: "Node registration",
    summary: "How a machine running a kubelet becomes a Node the scheduler can use.",
    steps: &[
        StepText {
            title: "A machine with a kubelet, and no Node yet",
            body: &[
                "The [[machine|machine]] runs containerd and a [[kubelet|kubelet]] started with `--register-node` at its default, `true`. Nothing in the cluster knows this machine yet: the [[apiserver|API server]] has no Node object for it.",
                "containerd is up, but no CNI plugin has written its configuration yet, so the [[runtime|runtime]] reports `NetworkReady=false`. That will matter in step 4.",
            ],
        },
        StepText {
            title: "The kubelet POSTs its Node",
            body: &[
                "The [[kubelet|kubelet]] sends `POST /api/v1/nodes`. The body already carries a status: `addresses`, `capacity`, `allocatable`, `nodeInfo` and the [[conditions|conditions]], with `Ready` `False`, reason `KubeletNotReady`, because the runtime's network is not ready.",
                "The TaintNodesByCondition admission plugin adds `node.kubernetes.io/not-ready:NoSchedule` to the new Node's [[taints|taints]]. Names are unique: a second machine with the same name would get `409 AlreadyExists` and adopt this object.",
                "Right after, the kubelet's first [[lease|Lease]] attempt finds no Node to own it; the Lease is created on the next 10 s tick.",
                "The `Ready` message also ends with `failed to initialize CSINode`: since it started, the kubelet's CSI volume plugin has been trying to create the `CSINode` named `node-1`, and needs the Node's `uid` for its owner reference (`nodes \"node-1\" not found`). A moment after the POST it reads the Node and sends `POST /apis/storage.k8s.io/v1/csinodes`; the next status leaves that part out.",
            ],
        },
        StepText {
            title: "Status PATCHes, labels, and what a kubelet may not do",
            body: &[
                "From now on the kubelet recomputes its status every 10 s (`nodeStatusUpdateFrequency`) and sends `PATCH /api/v1/nodes/node-1/status` only when something changed, or every 5 minutes (`nodeStatusReportFrequency`) when nothing did.",
                "Labels live on `metadata`. The kubelet sets `kubernetes.io/hostname`, `kubernetes.io/os` and `kubernetes.io/arch`, never a role. Here someone on node-1 runs `kubectl label node node-1 node-role.kubernetes.io/worker=` with the kubelet's kubeconfig (user `system:node:node-1`), and the NodeRestriction admission plugin answers `403 Forbidden`: roles are set by an administrator, never with the node's own credentials.",
                "In practice you meet this earlier: a kubelet started with `--node-labels=node-role.kubernetes.io/worker` refuses to start (`unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels`). The kubelet refuses to start with that flag; the API server refuses the node's credentials when someone tries by hand, which is what you see here.",
            ],
        },
        StepText {
            title: "Not Ready: the taint keeps ordinary Pods off",
            body: &[
                "`Ready` stays `False` while the runtime's network is not ready. The [[scheduler|scheduler]] does not read conditions: it reads [[taints|taints]]. An ordinary Pod does not tolerate `node.kubernetes.io/not-ready`, so it stays Pending with a `FailedScheduling` event.",
                "A Pod that tolerates the taint is bound at once. Its containers still cannot start: the kubelet reports `NetworkNotReady` until the network is there.",
            ],
        },
        StepText {
            title: "Ready: the taint comes off, the Pod is bound",
            body: &[
                "The CNI configuration appears and containerd reports `NetworkReady=true`. The kubelet's fast startup loop patches `Ready` to `True` within a moment and records `NodeReady`.",
                "The [[nlc|node lifecycle controller]] removes the not-ready taint. The [[scheduler|scheduler]] binds the pending Pod with `POST /api/v1/namespaces/default/pods/NAME/binding`, which sets `spec.nodeName`. The [[kubelet|kubelet]] sees a Pod for its node, pulls the image and starts the [[containers|containers]].",
            ],
        },
        StepText {
            title: "Alive is not Ready: two heartbeats",
            body: &[
                "Every 10 s the kubelet renews its [[lease|Lease]] in `kube-node-lease` with a `PUT`: `renewTime` moves, nothing else. That is the cheap, fast heartbeat the control plane watches.",
                "The Node's status is the slow one: `lastHeartbeatTime` in the [[conditions|conditions]] moves only when the kubelet PATCHes, on a change or every 5 minutes. Play on to see the 5-minute report arrive.",
            ],
        },
    ],
};

static REGISTRATION_JA: ChapterText = ChapterText {
    title: "Node の登録",
    summary: "kubelet が動くマシンが、スケジューラーの使える Node になるまで。",
    steps: &[
        StepText {
            title: "kubelet のあるマシン、まだ Node はない",
            body: &[
                "[[machine|マシン]]では containerd と、`--register-node` を既定値 `true` のまま起動した [[kubelet|kubelet]] が動いています。クラスタはまだこのマシンを知りません。[[apiserver|API サーバー]]にこのマシンの Node オブジェクトはありません。",
                "containerd は動いていますが、CNI プラグインがまだ設定を書いていないので、[[runtime|ランタイム]]は `NetworkReady=false` を報告します。これがステップ 4 で効いてきます。",
            ],
        },
        StepText {
            title: "kubelet が Node を POST する",
            body: &[
                "[[kubelet|kubelet]] が `POST /api/v1/nodes` を送ります。本文にはすでに status が入っています。`addresses`、`capacity`、`allocatable`、`nodeInfo`、そして [[conditions|conditions]] です。ランタイムのネットワークが準備できていないので、`Ready` は `False`、reason は `KubeletNotReady` です。",
                "admission プラグイン TaintNodesByCondition が、新しい Node の [[taints|taints]] に `node.kubernetes.io/not-ready:NoSchedule` を加えます。名前は一意です。同じ名前の 2 台目のマシンは `409 AlreadyExists` を受け取り、この Node を引き継ぎます。",
                "直後の最初の [[lease|Lease]] 作成は、持ち主となる Node がまだ見えず失敗します。Lease は次の 10 秒後の周期で作られます。",
                "`Ready` の message の最後には `failed to initialize CSINode` も付いています。kubelet の CSI ボリュームプラグインは起動直後から `node-1` という名前の `CSINode` を作ろうとしていますが、owner reference に Node の `uid` が要るため失敗しています (`nodes \"node-1\" not found`)。POST の少し後に Node を読み、`POST /apis/storage.k8s.io/v1/csinodes` を送ります。次の status からはその部分が消えます。",
            ],
        },
        StepText {
            title: "status の PATCH、ラベル、kubelet にできないこと",
            body: &[
                "ここから kubelet は 10 秒ごと (`nodeStatusUpdateFrequency`) に status を計算し直し、何かが変わったとき、または何も変わらなくても 5 分ごと (`nodeStatusReportFrequency`) に `PATCH /api/v1/nodes/node-1/status` を送ります。",
                "ラベルは `metadata` にあります。kubelet が付けるのは `kubernetes.io/hostname`、`kubernetes.io/os`、`kubernetes.io/arch` で、role は付けません。ここでは node-1 上の誰かが `kubectl label node node-1 node-role.kubernetes.io/worker=` を kubelet の kubeconfig (ユーザー `system:node:node-1`) で実行し、admission プラグイン NodeRestriction が `403 Forbidden` を返します。role は管理者が付けるもので、node 自身の資格情報で付けるものではありません。",
                "実際にはもっと手前で出会います。`--node-labels=node-role.kubernetes.io/worker` を付けて起動した kubelet は起動を拒みます (`unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels`)。kubelet はそのフラグでは起動せず、誰かが手で試せば API サーバーが node の資格情報を拒否します。ここで見えているのはそちらです。",
            ],
        },
        StepText {
            title: "Not Ready: taint が普通の Pod を遠ざける",
            body: &[
                "ランタイムのネットワークが準備できるまで `Ready` は `False` のままです。[[scheduler|スケジューラー]]が見るのは conditions ではなく [[taints|taints]] です。普通の Pod は `node.kubernetes.io/not-ready` を許容しないので、`FailedScheduling` イベントを残して Pending のままです。",
                "この taint を許容する Pod はすぐにバインドされます。それでもコンテナはまだ起動できず、ネットワークが整うまで kubelet は `NetworkNotReady` を報告します。",
            ],
        },
        StepText {
            title: "Ready: taint が外れ、Pod がバインドされる",
            body: &[
                "CNI の設定が現れ、containerd が `NetworkReady=true` を報告します。kubelet の起動直後の高速ループが、すぐに `Ready` を `True` に PATCH し、`NodeReady` を記録します。",
                "[[nlc|node lifecycle controller]] が not-ready の taint を外します。[[scheduler|スケジューラー]]は待っていた Pod を `POST /api/v1/namespaces/default/pods/NAME/binding` でバインドし、これが `spec.nodeName` を設定します。[[kubelet|kubelet]] は自分の node の Pod に気づき、イメージを pull して[[containers|コンテナ]]を起動します。",
            ],
        },
        StepText {
            title: "生きていることと Ready は別: 2 つの heartbeat",
            body: &[
                "kubelet は 10 秒ごとに `kube-node-lease` の [[lease|Lease]] を `PUT` で更新します。動くのは `renewTime` だけです。これがコントロールプレーンの見張る、軽くて速い heartbeat です。",
                "Node の status は遅い方です。[[conditions|conditions]] の `lastHeartbeatTime` が動くのは kubelet が PATCH したとき、つまり変化があったときか 5 分ごとだけです。再生を続けて、5 分ごとの報告が届くところを見てください。",
            ],
        },
    ],
};

static NODE_FAILURE_EN: ChapterText = ChapterText {
    title: "Node failure and Pod recovery",
    summary: "Kill the kubelet on node-1 and watch the cluster notice, taint, evict and replace.",
    steps: &[
        StepText {
            title: "Two nodes, two heartbeats",
            body: &[
                "node-1 runs the Deployment's Pod; node-2 joined a little later. Each [[kubelet|kubelet]] renews its [[lease|Lease]] every 10 s and PATCHes its Node status every 5 minutes.",
                "The [[nlc|node lifecycle controller]] checks every node every 5 s (`--node-monitor-period`). A Lease `renewTime` that moved counts as a heartbeat.",
            ],
        },
        StepText {
            title: "The kubelet on node-1 stops",
            body: &[
                "`systemctl stop kubelet`: the [[kubelet|kubelet]] is gone, but its Pod's [[containers|containers]] keep running on the machine: nothing stops them.",
                "The [[lease|Lease]] is no longer renewed. Its `leaseDurationSeconds` is 40, but no component acts on that: the controller only watches whether `renewTime` moves.",
            ],
        },
        StepText {
            title: "The grace period runs out: Unknown",
            body: &[
                "After the node monitor grace period (50 s since Kubernetes 1.32; 40 s before) without a renewal, the [[nlc|controller]] sets `Ready`, `MemoryPressure`, `DiskPressure` and `PIDPressure` to `Unknown` with reason `NodeStatusUnknown` and message `Kubelet stopped posting node status.`",
                "`kubectl get nodes` now shows `NotReady`. The node's [[pods|Pods]] are marked not Ready, each with a `NodeNotReady` warning.",
            ],
        },
        StepText {
            title: "Unreachable taints; the 300 s countdown starts",
            body: &[
                "Milliseconds after the Unknown write, the controller adds `node.kubernetes.io/unreachable:NoSchedule`; one monitor pass later (about 5 s), the NoExecute one. Both carry `timeAdded`.",
                "Every Pod was given `tolerationSeconds: 300` for that taint at admission (DefaultTolerationSeconds), so the [[eviction|taint eviction controller]] schedules the deletion 300 s from now. With every node down it would evict nothing: a one-node cluster never gets here.",
            ],
        },
        StepText {
            title: "The toleration runs out: the Pod is deleted",
            body: &[
                "The [[eviction|taint eviction controller]] records `TaintManagerEviction`, adds the `DisruptionTarget` condition and deletes the Pod. The deletion sets `deletionTimestamp`: the Pod shows `Terminating` because no kubelet is there to confirm its containers stopped. They are still running on node-1.",
            ],
        },
        StepText {
            title: "A replacement runs on node-2",
            body: &[
                "The [[replicaset|ReplicaSet controller]] does not count Terminating Pods, so it creates a replacement at once. The [[scheduler|scheduler]] binds it to node-2 (node-1 is tainted), and node-2's kubelet starts it.",
                "Recovery took about the grace period plus 300 s, by design: a node that is briefly unreachable should not lose its Pods.",
            ],
        },
    ],
};

static NODE_FAILURE_JA: ChapterText = ChapterText {
    title: "Node の障害と Pod の復旧",
    summary: "node-1 の kubelet を止め、クラスタが気づき、taint を付け、退避させ、置き換えるまでを見ます。",
    steps: &[
        StepText {
            title: "2 台の node、2 つの heartbeat",
            body: &[
                "node-1 では Deployment の Pod が動いています。node-2 は少し遅れて参加しました。それぞれの [[kubelet|kubelet]] が 10 秒ごとに [[lease|Lease]] を更新し、5 分ごとに Node の status を PATCH します。",
                "[[nlc|node lifecycle controller]] は 5 秒ごと (`--node-monitor-period`) にすべての node を確認します。Lease の `renewTime` が動いていれば heartbeat として数えます。",
            ],
        },
        StepText {
            title: "node-1 の kubelet が止まる",
            body: &[
                "`systemctl stop kubelet`: [[kubelet|kubelet]] はいなくなりますが、Pod の[[containers|コンテナ]]はマシン上で動き続けます。止めるものが何もないからです。",
                "[[lease|Lease]] はもう更新されません。`leaseDurationSeconds` は 40 ですが、この値で動くコンポーネントはありません。コントローラーが見るのは `renewTime` が動くかどうかだけです。",
            ],
        },
        StepText {
            title: "猶予期間が尽きる: Unknown",
            body: &[
                "更新がないまま node monitor grace period (Kubernetes 1.32 以降は 50 秒、それより前は 40 秒) が過ぎると、[[nlc|コントローラー]]は `Ready`、`MemoryPressure`、`DiskPressure`、`PIDPressure` を `Unknown` にします。reason は `NodeStatusUnknown`、message は `Kubelet stopped posting node status.` です。",
                "`kubectl get nodes` には `NotReady` と表示されます。この node の [[pods|Pod]] は Ready でないと印が付き、それぞれ `NodeNotReady` の warning が記録されます。",
            ],
        },
        StepText {
            title: "unreachable の taint、300 秒のカウントダウン開始",
            body: &[
                "Unknown の書き込みから数ミリ秒後、コントローラーは `node.kubernetes.io/unreachable:NoSchedule` を加えます。次の確認 (約 5 秒後) で NoExecute の方も加えます。どちらにも `timeAdded` が付きます。",
                "どの Pod にも admission の時点 (DefaultTolerationSeconds) でこの taint への `tolerationSeconds: 300` が与えられているので、[[eviction|taint eviction controller]] は 300 秒後の削除を予約します。すべての node が落ちているときは何も退避させません。node が 1 台のクラスタはここまで来ません。",
            ],
        },
        StepText {
            title: "toleration が尽きる: Pod が削除される",
            body: &[
                "[[eviction|taint eviction controller]] が `TaintManagerEviction` を記録し、`DisruptionTarget` condition を加えて Pod を削除します。削除で `deletionTimestamp` が設定されます。コンテナの停止を確認する kubelet がいないので、Pod は `Terminating` と表示されたままです。コンテナは node-1 でまだ動いています。",
            ],
        },
        StepText {
            title: "node-2 で代わりが動く",
            body: &[
                "[[replicaset|ReplicaSet controller]] は Terminating の Pod を数えないので、すぐに代わりを作ります。[[scheduler|スケジューラー]]はそれを node-2 にバインドし (node-1 には taint があります)、node-2 の kubelet が起動します。",
                "復旧にかかったのは猶予期間 + 300 秒ほどです。これは設計どおりで、ほんの少し届かなくなっただけの node が Pod を失わないためです。",
            ],
        },
    ],
};

static KUBELET_RESTART_EN: ChapterText = ChapterText {
    title: "Kubelet restart",
    summary: "The kubelet comes back: 409, adoption, Ready, and the evictions that were still pending are cancelled.",
    steps: &[
        StepText {
            title: "Down for a while",
            body: &[
                "The kubelet on node-1 stopped two minutes ago. The Node is `NotReady`, its [[conditions|conditions]] `Unknown`, and both unreachable [[taints|taints]] are on. The Pod's deletion is scheduled but its 300 s have not run out.",
            ],
        },
        StepText {
            title: "The kubelet starts and adopts its Node",
            body: &[
                "The [[kubelet|kubelet]] records `Starting`, builds its Node again and POSTs it: `409 AlreadyExists`. It GETs the existing object and adopts it; only a few default labels and annotations would be reconciled.",
                "The pressure events fire again (`x2`: once for the fresh object, once coming back from Unknown), then `NodeNotReady` while PLEG has not relisted yet, and `NodeAllocatableEnforced`.",
            ],
        },
        StepText {
            title: "Ready again",
            body: &[
                "The fast status loop PATCHes `Ready` `True` as soon as the runtime and PLEG checks pass: `NodeReady`. [[lease|Lease]] renewals resume.",
            ],
        },
        StepText {
            title: "Taints off, evictions cancelled",
            body: &[
                "The [[nlc|controller]] removes the NoSchedule taint at once and the NoExecute one at its next pass. The [[eviction|taint eviction controller]] cancels the pending deletion (`Cancelling deletion of Pod`), and the kubelet reports the still-running Pod Ready again.",
                "Had the kubelet come back within the grace period, the node would never have gone NotReady: the only trace would be the `Starting`, pressure and `NodeAllocatableEnforced` events.",
            ],
        },
    ],
};

static KUBELET_RESTART_JA: ChapterText = ChapterText {
    title: "kubelet の再起動",
    summary: "kubelet が戻ってきます。409、引き継ぎ、Ready、そして保留中だった退避の取り消し。",
    steps: &[
        StepText {
            title: "しばらく止まっている",
            body: &[
                "node-1 の kubelet は 2 分前に止まりました。Node は `NotReady`、[[conditions|conditions]] は `Unknown`、unreachable の [[taints|taints]] が 2 つとも付いています。Pod の削除は予約済みですが、300 秒はまだ尽きていません。",
            ],
        },
        StepText {
            title: "kubelet が起動し、Node を引き継ぐ",
            body: &[
                "[[kubelet|kubelet]] は `Starting` を記録し、Node をもう一度組み立てて POST します。答えは `409 AlreadyExists` です。既存のオブジェクトを GET して引き継ぎます。合わせ直すのは既定のラベルとアノテーションのいくつかだけです。",
                "pressure のイベントがもう一度出ます (`x2`: 新しいオブジェクトに 1 回、Unknown から戻るときに 1 回)。続いて PLEG がまだ relist していない間の `NodeNotReady`、そして `NodeAllocatableEnforced` です。",
            ],
        },
        StepText {
            title: "再び Ready",
            body: &[
                "ランタイムと PLEG のチェックが通ると、高速の status ループが `Ready` を `True` に PATCH します: `NodeReady`。[[lease|Lease]] の更新も再開します。",
            ],
        },
        StepText {
            title: "taint が外れ、退避が取り消される",
            body: &[
                "[[nlc|コントローラー]]は NoSchedule の taint をすぐに、NoExecute の taint を次の確認で外します。[[eviction|taint eviction controller]] は保留中の削除を取り消し (`Cancelling deletion of Pod`)、kubelet は動き続けていた Pod を再び Ready と報告します。",
                "kubelet が猶予期間内に戻っていれば、node は NotReady にすらなりませんでした。残る痕跡は `Starting`、pressure、`NodeAllocatableEnforced` のイベントだけです。",
            ],
        },
    ],
};

static ZONE_OUTAGE_EN: ChapterText = ChapterText {
    title: "A zone goes dark",
    summary: "A fleet in three zones: per-zone states, rate-limited tainting and master disruption mode.",
    steps: &[
        StepText {
            title: "Three healthy zones",
            body: &[
                "A fleet in three zones of one region: each kubelet registers its Node with `topology.kubernetes.io/region` and `topology.kubernetes.io/zone`, as a cloud provider labels them. A Deployment, `web`, runs one Pod a node, spread over the zones. Change the size with `&nodes=N`, from 3 to 1,000.",
                "The [[replicaset|ReplicaSet controller]] created those Pods through a client of its own, as every controller of kube-controller-manager has one: 20 requests a second after a burst of 30, its Events included. 150 Pods take 7 s, 1,000 about 50 s, and the line under the drawing shows the creates waiting.",
                "Every 10 s each kubelet renews its Lease. Every 5 s the [[nlc|node lifecycle controller]] checks every Node and counts each zone's Ready and not-Ready Nodes: all three zones are `Normal`. Each zone has its own tainting queue, a token bucket that lets one node through every 10 s (`--node-eviction-rate` 0.1).",
            ],
        },
        StepText {
            title: "A few nodes fail, tainted one every 10 s",
            body: &[
                "A few kubelets in `eu-west-1b` lose the API server. After the 50 s grace period the controller sets their conditions to `Unknown` and adds `node.kubernetes.io/unreachable:NoSchedule` at once.",
                "The `NoExecute` taint goes through the zone's queue: the first node at once (the bucket starts full), then one every 10 s. Each taint starts the 300 s countdown of the Pods' tolerations. The zone is still `Normal`: a few nodes of a zone are far from 55 %.",
            ],
        },
        StepText {
            title: "Past 55 %: tainting slows, or stops",
            body: &[
                "More than half of `eu-west-1b` goes quiet. With more than two Nodes not Ready and at least 55 % of the zone (`--unhealthy-zone-threshold` 0.55), the zone is `PartialDisruption`, and the controller logs `Controller detected that zone is now in new state`.",
                "In a zone of more than 50 nodes (`--large-cluster-size-threshold`) the queue slows to one node every 100 s (`--secondary-node-eviction-rate` 0.01); in a zone of 50 or fewer, as at the default size, it stops. Most of a zone vanishing at once is more likely a network partition than broken machines: emptying the zone would move its whole workload for nothing. Open the chapter with `&nodes=153` to see the slower rate.",
            ],
        },
        StepText {
            title: "The whole zone goes dark",
            body: &[
                "The rest of `eu-west-1b` goes quiet. After the grace period the controller marks each of its Nodes `Unknown`: the Node's status, its Pods' statuses, the `NoSchedule` taint and their Events all go through its client at kube-controller-manager's 20 requests a second (burst 30), and the stage shows the requests waiting. It counts the zone only once its pass has checked every Node, about a minute after the cut (over 70 s at 1,000 nodes).",
                "With no Ready Node left the zone is `FullDisruption`, and while the other zones are healthy the controller treats it as a real outage: the queue gets a fresh bucket at one node every 10 s, so the next node is tainted 10 s after the change.",
                "As tolerations run out, the [[eviction|taint eviction controller]] deletes the Pods (three requests each, at the controller manager's 20 requests a second, burst 30), the [[replicaset|ReplicaSet]] creates replacements and the [[scheduler|scheduler]] binds them in `eu-west-1a` and `eu-west-1c`.",
            ],
        },
        StepText {
            title: "The control plane loses every node",
            body: &[
                "Now the [[apiserver|API server]] hears no kubelet at all. Every zone becomes `FullDisruption` and the controller logs `Controller detected that all Nodes are not-Ready. Entering master disruption mode`.",
                "Every Node going quiet at once is more likely a fault of the control plane's own network than of every machine. The controller removes every `NoExecute` taint (the `NoSchedule` ones stay), stops all tainting, and the pending evictions are cancelled: nothing more is evicted.",
            ],
        },
        StepText {
            title: "Recovery",
            body: &[
                "The network comes back. The first Ready Node ends master disruption mode (`Exiting master disruption mode`): every Node's grace period starts again from now, which spares the Nodes that are back. A Node still `Unknown` waits for no new grace period: at the next pass it goes back into its zone's tainting queue, and waits only for the zone's bucket.",
                "The kubelets report Ready, the `unreachable` taints come off, and the zones return to `Normal`.",
            ],
        },
    ],
};

static ZONE_OUTAGE_JA: ChapterText = ChapterText {
    title: "ゾーンが落ちる",
    summary: "3 つのゾーンにまたがるフリート: ゾーンごとの状態、レート制限された taint 付け、マスター障害モード。",
    steps: &[
        StepText {
            title: "健全な 3 つのゾーン",
            body: &[
                "1 つのリージョンの 3 つのゾーンに広がるフリートです。各 kubelet はクラウドプロバイダーと同じく `topology.kubernetes.io/region` と `topology.kubernetes.io/zone` のラベル付きで Node を登録します。Deployment `web` は Node 1 台につき Pod 1 つを、ゾーンに分散して動かしています。台数は `&nodes=N` で 3 から 1,000 まで変えられます。",
                "これらの Pod は [[replicaset|ReplicaSet コントローラー]]が自分専用のクライアントで作成しました。kube-controller-manager のコントローラーはそれぞれ自分のクライアントを持ち、バースト 30 のあとは毎秒 20 リクエストです (Event も含みます)。Pod 150 個で 7 秒、1,000 個で約 50 秒かかり、図の下の行に待機中の作成リクエストが表示されます。",
                "各 kubelet は 10 秒ごとに Lease を更新します。[[nlc|ノードライフサイクルコントローラー]]は 5 秒ごとにすべての Node を調べ、ゾーンごとに Ready とそうでない Node を数えます。3 つのゾーンはどれも `Normal` です。ゾーンごとに taint 付けのキューがあり、10 秒に 1 台だけ通すトークンバケットになっています (`--node-eviction-rate` 0.1)。",
            ],
        },
        StepText {
            title: "数台が落ち、10 秒に 1 台ずつ taint が付く",
            body: &[
                "`eu-west-1b` の数台の kubelet が API サーバーに届かなくなります。50 秒の猶予期間のあと、コントローラーはその Node の状態を `Unknown` にし、`node.kubernetes.io/unreachable:NoSchedule` をすぐに付けます。",
                "`NoExecute` の taint はゾーンのキューを通ります。最初の 1 台はすぐに (バケットは満タンで始まるため)、その後は 10 秒に 1 台です。taint が付くたびに Pod の toleration の 300 秒のカウントダウンが始まります。ゾーンはまだ `Normal` です。数台では 55 % には遠く及びません。",
            ],
        },
        StepText {
            title: "55 % を超えると、taint 付けは遅くなるか止まる",
            body: &[
                "`eu-west-1b` の半分以上が応答しなくなります。Ready でない Node が 2 台を超え、ゾーンの 55 % 以上 (`--unhealthy-zone-threshold` 0.55) になると、ゾーンは `PartialDisruption` になり、コントローラーは `Controller detected that zone is now in new state` とログに書きます。",
                "50 台を超えるゾーン (`--large-cluster-size-threshold`) ではキューが 100 秒に 1 台に遅くなり (`--secondary-node-eviction-rate` 0.01)、既定の台数のように 50 台以下のゾーンでは止まります。ゾーンの大半が一度に消えたのなら、マシンの故障よりネットワークの分断の可能性が高く、ゾーンを空にしてもワークロードを無駄に動かすだけだからです。遅いレートを見るには `&nodes=153` で開いてください。",
            ],
        },
        StepText {
            title: "ゾーン全体が落ちる",
            body: &[
                "`eu-west-1b` の残りも応答しなくなります。猶予期間のあと、コントローラーはその Node を 1 台ずつ `Unknown` にします。Node の状態、その Pod の状態、`NoSchedule` の taint、それらのイベントは、すべてコントローラーのクライアントを通り、kube-controller-manager の毎秒 20 リクエスト (バースト 30) に従います。待っているリクエストはステージに表示されます。ゾーンを数えるのはパスがすべての Node を調べ終えてからで、切断からおよそ 1 分後です (1,000 台では 70 秒以上)。",
                "Ready の Node が 1 台も残らないとゾーンは `FullDisruption` になり、ほかのゾーンが健全である限り、コントローラーはこれを本当の障害として扱います。キューには 10 秒に 1 台の新しいバケットが入るので、次の Node は状態が変わった 10 秒後に taint されます。",
                "toleration が切れるたびに、[[eviction|taint 退避コントローラー]]が Pod を削除し (1 つにつき 3 リクエスト、コントローラーマネージャーの毎秒 20 リクエスト、バースト 30 の範囲で)、[[replicaset|ReplicaSet]] が代わりを作り、[[scheduler|スケジューラー]]が `eu-west-1a` と `eu-west-1c` に割り当てます。",
            ],
        },
        StepText {
            title: "コントロールプレーンがすべての Node を見失う",
            body: &[
                "今度は [[apiserver|API サーバー]]にどの kubelet の声も届きません。すべてのゾーンが `FullDisruption` になり、コントローラーは `Controller detected that all Nodes are not-Ready. Entering master disruption mode` とログに書きます。",
                "すべての Node が一度に黙ったのなら、全マシンの故障よりコントロールプレーン自身のネットワークの障害の可能性が高いはずです。コントローラーはすべての `NoExecute` taint を外し (`NoSchedule` は残ります)、taint 付けを止め、保留中の退避は取り消されます。これ以上は何も退避されません。",
            ],
        },
        StepText {
            title: "回復",
            body: &[
                "ネットワークが戻ります。最初に Ready になった Node でマスター障害モードが終わります (`Exiting master disruption mode`)。すべての Node の猶予期間がいまから数え直され、戻ってきた Node はそれで救われます。まだ `Unknown` の Node には新しい猶予期間はありません。次のパスでゾーンの taint キューに戻り、ゾーンのバケットだけを待ちます。",
                "kubelet が Ready を報告し、`unreachable` の taint が外れ、ゾーンは `Normal` に戻ります。",
            ],
        },
    ],
};

static MAINTENANCE_EN: ChapterText = ChapterText {
    title: "Maintenance",
    summary: "Cordon, drain against a PodDisruptionBudget, uncordon: every eviction at once, 429 and kubectl's retries.",
    steps: &[
        StepText {
            title: "A node to maintain, a workload with a budget",
            body: &[
                "Three nodes. A DaemonSet runs a `node-agent` Pod on each, and the Deployment `web` runs six [[pods|Pods]], two per node. Someone runs `kubectl create pdb web --selector=app=web --min-available=5`.",
                "The disruption controller writes the budget's status: `expectedPods` 6, `desiredHealthy` 5, `currentHealthy` 6, so `disruptionsAllowed` is 1 and the condition `DisruptionAllowed` is `True` (`SufficientPods`).",
            ],
        },
        StepText {
            title: "Cordon: no new Pods, and the running ones stay",
            body: &[
                "`kubectl cordon node-1` GETs the Node and sends `PATCH /api/v1/nodes/node-1`, a strategic merge patch `{\"spec\":{\"unschedulable\":true}}`, and prints `node/node-1 cordoned`.",
                "The [[nlc|node lifecycle controller]], not an admission plugin, then adds the [[taints|taint]] `node.kubernetes.io/unschedulable:NoSchedule` with a `timeAdded`. The [[scheduler|scheduler]]'s `NodeUnschedulable` filter now skips node-1 (`node(s) were unschedulable`), and `kubectl get nodes` shows `Ready,SchedulingDisabled`. Within 10 s the [[kubelet|kubelet]] records `NodeNotSchedulable`. Nothing running on node-1 moves.",
            ],
        },
        StepText {
            title: "Drain: every eviction at once",
            body: &[
                "`kubectl drain node-1 --ignore-daemonsets` cordons (`already cordoned`), lists the node's Pods with `fieldSelector=spec.nodeName=node-1`, and runs its filters in order: the `node-agent` Pod is DaemonSet-managed, so it is left alone with a warning (without the flag the drain would stop here, node cordoned, nothing evicted).",
                "Then it POSTs an `Eviction` for every other Pod at the same time, one goroutine each: not one by one. The first is accepted with `201`; the API server itself decrements the budget to 0 and records the Pod in `disruptedPods`, then deletes the Pod gracefully.",
            ],
        },
        StepText {
            title: "The budget says 429; kubectl waits 5 s",
            body: &[
                "The second eviction meets a budget with no disruption left: `429 Too Many Requests`, `Cannot evict pod as it would violate the pod's disruption budget.` kubectl prints the error, sleeps 5 s, and will try again. Meanwhile it GETs the evicted Pod every second until it is gone.",
                "The [[replicaset|ReplicaSet]] creates a replacement at once, and the scheduler binds it to node-2 or node-3: node-1 is cordoned.",
            ],
        },
        StepText {
            title: "The replacement is Ready; the budget lets the next one go",
            body: &[
                "When the replacement is Ready, the disruption controller counts six healthy Pods again and sets `disruptionsAllowed` to 1. kubectl's next attempt, 5 s after the first, prints `evicting pod` again and gets `201`.",
            ],
        },
        StepText {
            title: "Drained: only the DaemonSet's Pod is left",
            body: &[
                "When the last evicted Pod is gone kubectl prints `node/node-1 drained`. The `node-agent` Pod still runs on node-1: it tolerates `unschedulable`, and drain never evicts DaemonSet Pods. The node is ready for maintenance.",
            ],
        },
        StepText {
            title: "Uncordon",
            body: &[
                "`kubectl uncordon node-1` patches `{\"spec\":{\"unschedulable\":null}}`. The controller removes the taint, the kubelet records `NodeSchedulable`, and new Pods may land on node-1 again. Nothing moves back by itself: the Pods that left stay where they are.",
            ],
        },
    ],
};

static MAINTENANCE_JA: ChapterText = ChapterText {
    title: "メンテナンス",
    summary: "cordon、PodDisruptionBudget の下での drain、uncordon。退避は一斉に、429 と kubectl の再試行。",
    steps: &[
        StepText {
            title: "メンテナンスする node と、予算付きのワークロード",
            body: &[
                "node は 3 台。DaemonSet が各 node で `node-agent` Pod を動かし、Deployment `web` が [[pods|Pod]] を 6 個、node ごとに 2 個ずつ動かしています。誰かが `kubectl create pdb web --selector=app=web --min-available=5` を実行します。",
                "disruption controller が予算の status を書きます。`expectedPods` 6、`desiredHealthy` 5、`currentHealthy` 6 なので `disruptionsAllowed` は 1、condition `DisruptionAllowed` は `True` (`SufficientPods`) です。",
            ],
        },
        StepText {
            title: "cordon: 新しい Pod は来ない、動いている Pod はそのまま",
            body: &[
                "`kubectl cordon node-1` は Node を GET し、strategic merge patch `{\"spec\":{\"unschedulable\":true}}` で `PATCH /api/v1/nodes/node-1` を送り、`node/node-1 cordoned` と表示します。",
                "続いて admission プラグインではなく [[nlc|node lifecycle controller]] が、[[taints|taint]] `node.kubernetes.io/unschedulable:NoSchedule` を `timeAdded` 付きで加えます。[[scheduler|スケジューラー]]の `NodeUnschedulable` フィルターは node-1 を外し (`node(s) were unschedulable`)、`kubectl get nodes` は `Ready,SchedulingDisabled` と表示します。10 秒以内に [[kubelet|kubelet]] が `NodeNotSchedulable` を記録します。node-1 で動いているものは何も動きません。",
            ],
        },
        StepText {
            title: "drain: 退避は一斉に",
            body: &[
                "`kubectl drain node-1 --ignore-daemonsets` は cordon し (`already cordoned`)、`fieldSelector=spec.nodeName=node-1` で node の Pod を一覧し、フィルターを順に通します。`node-agent` Pod は DaemonSet の管理下なので、警告を出して残します (このフラグがなければ drain はここで止まります。node は cordon されたまま、何も退避されません)。",
                "そして残りすべての Pod に `Eviction` を同時に POST します。Pod ごとに goroutine が 1 つ、順番にではありません。最初の 1 つは `201` で受け付けられ、API サーバー自身が予算を 0 に減らし、Pod を `disruptedPods` に記録してから、Pod を猶予付きで削除します。",
            ],
        },
        StepText {
            title: "予算が 429 を返し、kubectl は 5 秒待つ",
            body: &[
                "2 つ目の退避は、もう余裕のない予算に当たります: `429 Too Many Requests`、`Cannot evict pod as it would violate the pod's disruption budget.` kubectl はエラーを表示して 5 秒眠り、もう一度試みます。その間、退避した Pod が消えるまで毎秒 GET します。",
                "[[replicaset|ReplicaSet]] はすぐに代わりを作り、node-1 は cordon されているので、スケジューラーはそれを node-2 か node-3 に割り当てます。",
            ],
        },
        StepText {
            title: "代わりが Ready になり、予算が次を通す",
            body: &[
                "代わりの Pod が Ready になると、disruption controller は健全な Pod を再び 6 個と数え、`disruptionsAllowed` を 1 にします。最初から 5 秒後の kubectl の次の試みは、もう一度 `evicting pod` と表示し、`201` を受け取ります。",
            ],
        },
        StepText {
            title: "drain 完了: 残るのは DaemonSet の Pod だけ",
            body: &[
                "退避した最後の Pod が消えると、kubectl は `node/node-1 drained` と表示します。`node-agent` Pod は node-1 で動き続けます。`unschedulable` を許容しており、drain は DaemonSet の Pod を退避しません。node はメンテナンスの準備ができました。",
            ],
        },
        StepText {
            title: "uncordon で元に戻す",
            body: &[
                "`kubectl uncordon node-1` は `{\"spec\":{\"unschedulable\":null}}` を patch します。コントローラーが taint を外し、kubelet が `NodeSchedulable` を記録し、新しい Pod は再び node-1 に来られます。ひとりでに戻るものはありません。出ていった Pod はそのままです。",
            ],
        },
    ],
};

static NODE_GOES_AWAY_EN: ChapterText = ChapterText {
    title: "A node goes away",
    summary: "Three ways a node leaves: a graceful shutdown, kubectl delete node, and a machine that dies with a StatefulSet Pod on it.",
    steps: &[
        StepText {
            title: "Three nodes, two kinds of workload",
            body: &[
                "node-1 runs the Deployment's two `web` Pods; node-2 runs `db-0`, the one Pod of the StatefulSet `db`, with its volume attached to node-2 through a `VolumeAttachment`; node-3 joined last.",
                "node-1's [[kubelet|kubelet]] is configured with `shutdownGracePeriod: 30s` and `shutdownGracePeriodCriticalPods: 10s`. Both default to `0s`, which turns graceful node shutdown off.",
            ],
        },
        StepText {
            title: "node-1 shuts down gracefully",
            body: &[
                "`systemctl poweroff` on node-1. logind holds the shutdown for the kubelet's inhibitor lock and signals `PrepareForShutdown`. The kubelet records the node event `Shutdown` (`Shutdown manager detected shutdown event`) and syncs its status at once: [[conditions|Ready]] `False`, reason `KubeletNotReady`, message `node is shutting down`.",
                "From now on its admission rejects new Pods (`NodeShutdown`). The not-ready [[taints|taint]] follows from the Ready condition.",
            ],
        },
        StepText {
            title: "Pods killed, Failed, not deleted",
            body: &[
                "Ordinary Pods get `shutdownGracePeriod − shutdownGracePeriodCriticalPods` = 20 s; critical ones the last 10 s. Each Pod ends `phase: Failed`, reason `Terminated`, message `Pod was terminated in response to imminent node shutdown.`, with the condition `DisruptionTarget` (`TerminationByKubelet`).",
                "Nobody deletes them: they stay in the API, on a node that is gone. The [[replicaset|ReplicaSet]] counts Failed Pods as inactive and creates replacements at once. The kubelet releases the lock, the machine powers off, and `Unknown` follows as in chapter 2; 300 s after the `not-ready:NoExecute` taint (the `unreachable` taint that replaces it keeps that schedule) the taint eviction controller deletes these Failed Pods too, at once, since a finished Pod has no grace period.",
            ],
        },
        StepText {
            title: "kubectl delete node node-3",
            body: &[
                "An administrator deletes node-3 while its kubelet still runs: `DELETE /api/v1/nodes/node-3` with `propagationPolicy: Background`; kubectl prints `node \"node-3\" deleted`.",
                "The garbage collector deletes the node's [[lease|Lease]], whose `ownerReferences` point at the Node. The [[nlc|node lifecycle controller]] records `RemovingNode` at its next pass. The running kubelet now fails every status update: `error getting node \"node-3\": nodes \"node-3\" not found`, five tries, then `update node status exceeds retry count`. It never registers again by itself.",
            ],
        },
        StepText {
            title: "PodGC collects the orphans",
            body: &[
                "Every 20 s (`gcCheckPeriod`) PodGC lists Pods bound to Nodes that do not exist. A missing node name waits in quarantine for 40 s (`quarantineTime`), then a live `GET` confirms it is gone: 40 to 60 s after the deletion.",
                "Each orphan is patched to `Failed` with `DisruptionTarget` (`DeletionByPodGC`, `PodGC: node no longer exists`) and deleted with a grace period of 0. The kubelet on node-3 sees the Pod vanish and stops its container.",
            ],
        },
        StepText {
            title: "Only a restart registers a new Node",
            body: &[
                "The kubelet on node-3 is restarted. Registration runs again from the start: `POST /api/v1/nodes` answers `201`, a new Node with a new uid, a new `RegisteredNode`, and a new [[lease|Lease]].",
            ],
        },
        StepText {
            title: "node-2 loses power",
            body: &[
                "node-2 dies without a word: no shutdown manager runs, nothing tells the API server. Its Pods still say `Running`. After 50 s the [[nlc|node lifecycle controller]] marks the [[conditions|conditions]] `Unknown` and adds the unreachable [[taints|taints]].",
            ],
        },
        StepText {
            title: "db-0 stuck Terminating",
            body: &[
                "300 s after the NoExecute taint, the [[eviction|taint eviction controller]] deletes the Pods. With no kubelet to confirm, they stay `Terminating`.",
                "The ReplicaSet does not wait: a terminating Pod is inactive, so `web` already runs elsewhere. The StatefulSet does wait: its replacement would have the same name, `db-0`, and a Pod with that name still exists. Its volume stays attached to node-2 too.",
            ],
        },
        StepText {
            title: "The out-of-service taint",
            body: &[
                "The administrator, sure node-2 is off, runs `kubectl taint nodes node-2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`.",
                "The [[eviction|taint eviction controller]] finds a NoExecute taint the Pods do not tolerate and deletes them again at once (`Marking for deletion Pod default/db-0`); they are already `Terminating`, so nothing changes. At PodGC's next pass (`gcTerminating`), the terminating Pods on a node that is not Ready and carries the taint are marked `Failed` and deleted with a grace period of 0.",
                "With the Pod gone and the taint on the node, the attach-detach controller detaches the volume without waiting for it to be unmounted: it takes the volume out of node-2's `volumesAttached` and deletes the `VolumeAttachment`, which the external-attacher's finalizer keeps until the driver has detached the disk. Without the taint its 6-minute force-detach timer (`maxWaitForUnmountDuration`) would never even have started: it starts when no Pod needs the volume any more, and db-0, never deleted, still needed it.",
            ],
        },
        StepText {
            title: "db-0 comes back, same name",
            body: &[
                "With the old `db-0` gone, the StatefulSet controller creates `db-0` again: same name, new uid. The [[scheduler|scheduler]] binds it to node-3. While the volume is still attached to node-2, the new Pod gets `FailedAttachVolume` (`Multi-Attach error`); once the detach is done, the volume is attached to node-3, and it runs.",
                "Remove the taint with `kubectl taint nodes node-2 node.kubernetes.io/out-of-service-` once node-2 is back or deleted.",
            ],
        },
    ],
};

static NODE_GOES_AWAY_JA: ChapterText = ChapterText {
    title: "Node が去る",
    summary: "Node が去る三つの道: グレースフルシャットダウン、kubectl delete node、そして StatefulSet の Pod を載せたまま止まるマシン。",
    steps: &[
        StepText {
            title: "三つの Node と二種類のワークロード",
            body: &[
                "node-1 では Deployment の `web` Pod が二つ動いています。node-2 では StatefulSet `db` のただ一つの Pod `db-0` が動き、そのボリュームは `VolumeAttachment` で node-2 にアタッチされています。node-3 は最後に参加しました。",
                "node-1 の [[kubelet|kubelet]] には `shutdownGracePeriod: 30s` と `shutdownGracePeriodCriticalPods: 10s` が設定されています。どちらも既定値は `0s` で、そのときグレースフルノードシャットダウンは無効です。",
            ],
        },
        StepText {
            title: "node-1 がグレースフルにシャットダウンする",
            body: &[
                "node-1 で `systemctl poweroff`。logind は kubelet の inhibitor lock のためにシャットダウンを待たせ、`PrepareForShutdown` を送ります。kubelet は Node イベント `Shutdown` (`Shutdown manager detected shutdown event`) を記録し、すぐにステータスを同期します: [[conditions|Ready]] は `False`、reason は `KubeletNotReady`、message は `node is shutting down`。",
                "以後、kubelet のアドミッションは新しい Pod を拒否します (`NodeShutdown`)。not-ready の [[taints|taint]] は Ready 条件から付きます。",
            ],
        },
        StepText {
            title: "Pod は kill され Failed になるが、削除はされない",
            body: &[
                "通常の Pod には `shutdownGracePeriod − shutdownGracePeriodCriticalPods` = 20 秒、クリティカルな Pod には最後の 10 秒が与えられます。各 Pod は `phase: Failed`、reason `Terminated`、message `Pod was terminated in response to imminent node shutdown.` となり、条件 `DisruptionTarget` (`TerminationByKubelet`) が付きます。",
                "誰も削除しません。Pod は API に残り、もう存在しない Node に載ったままです。[[replicaset|ReplicaSet]] は Failed の Pod を非アクティブと数え、すぐに代わりを作ります。kubelet がロックを解放するとマシンの電源が切れ、第 2 章と同じく `Unknown` が続きます。`not-ready:NoExecute` の taint から 300 秒後 (あとから付く `unreachable` の taint はその予定を引き継ぎます)、taint eviction controller はこの Failed の Pod も削除します。終了済みの Pod には猶予期間がないので、すぐに消えます。",
            ],
        },
        StepText {
            title: "kubectl delete node で node-3 を削除する",
            body: &[
                "管理者が、kubelet が動いたままの node-3 を削除します: `propagationPolicy: Background` 付きの `DELETE /api/v1/nodes/node-3`。kubectl は `node \"node-3\" deleted` と表示します。",
                "ガベージコレクターは、`ownerReferences` が Node を指している [[lease|Lease]] を削除します。[[nlc|node lifecycle controller]] は次のパスで `RemovingNode` を記録します。動いている kubelet はステータス更新に毎回失敗します: `error getting node \"node-3\": nodes \"node-3\" not found` を 5 回、続いて `update node status exceeds retry count`。自分から登録し直すことはありません。",
            ],
        },
        StepText {
            title: "PodGC が孤児の Pod を回収する",
            body: &[
                "PodGC は 20 秒ごと (`gcCheckPeriod`) に、存在しない Node に割り当てられた Pod を探します。見つからない Node 名は 40 秒 (`quarantineTime`) 隔離され、そのあと実際の `GET` で消えたことを確かめます。削除から 40〜60 秒後です。",
                "孤児の Pod はそれぞれ `DisruptionTarget` (`DeletionByPodGC`、`PodGC: node no longer exists`) 付きで `Failed` にパッチされ、猶予 0 で削除されます。node-3 の kubelet は Pod が消えたのを見て、そのコンテナを止めます。",
            ],
        },
        StepText {
            title: "新しい Node を登録できるのは再起動だけ",
            body: &[
                "node-3 の kubelet を再起動します。登録が最初からやり直されます: `POST /api/v1/nodes` は `201` を返し、新しい uid の新しい Node、新しい `RegisteredNode`、新しい [[lease|Lease]] ができます。",
            ],
        },
        StepText {
            title: "node-2 の電源が落ちる",
            body: &[
                "node-2 は何も言わずに止まります。シャットダウンマネージャーは動かず、API サーバーには何も伝わりません。Pod は `Running` のままです。50 秒後、[[nlc|node lifecycle controller]] が [[conditions|conditions]] を `Unknown` にし、unreachable の [[taints|taint]] を付けます。",
            ],
        },
        StepText {
            title: "db-0 は Terminating のまま",
            body: &[
                "NoExecute の taint から 300 秒後、[[eviction|taint eviction controller]] が Pod を削除します。確認する kubelet がいないので、Pod は `Terminating` のまま残ります。",
                "ReplicaSet は待ちません。終了中の Pod は非アクティブなので、`web` はすでに別の Node で動いています。StatefulSet は待ちます。代わりの Pod は同じ名前 `db-0` になるはずで、その名前の Pod がまだあるからです。ボリュームも node-2 にアタッチされたままです。",
            ],
        },
        StepText {
            title: "out-of-service taint を付ける",
            body: &[
                "node-2 が止まっていると確かめた管理者が `kubectl taint nodes node-2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` を実行します。",
                "[[eviction|taint eviction controller]] は Pod が許容しない NoExecute の taint を見つけ、すぐにもう一度削除します (`Marking for deletion Pod default/db-0`)。Pod はすでに `Terminating` なので、何も変わりません。PodGC の次のパス (`gcTerminating`) で、Ready でなくこの taint を持つ Node 上の終了中の Pod は `Failed` にされ、猶予 0 で削除されます。",
                "Pod が消え、Node に taint があるので、attach-detach コントローラーはアンマウントを待たずにボリュームをデタッチします。node-2 の `volumesAttached` からボリュームを外し、`VolumeAttachment` を削除します。external-attacher の finalizer が、ドライバーがディスクをデタッチし終えるまでそれを残します。taint がなければ、6 分の強制デタッチのタイマー (`maxWaitForUnmountDuration`) は始まりもしませんでした。このタイマーはボリュームを必要とする Pod がなくなったときに始まりますが、削除されない db-0 はずっとそれを必要としていたからです。",
            ],
        },
        StepText {
            title: "db-0 が同じ名前で戻る",
            body: &[
                "古い `db-0` が消えると、StatefulSet コントローラーが `db-0` をもう一度作ります。名前は同じで uid は新しくなります。[[scheduler|scheduler]] が node-3 にバインドします。ボリュームがまだ node-2 にアタッチされている間、新しい Pod には `FailedAttachVolume` (`Multi-Attach error`) が記録されます。デタッチが終わるとボリュームが node-3 にアタッチされ、Pod が動き出します。",
                "node-2 が戻るか削除されたら、`kubectl taint nodes node-2 node.kubernetes.io/out-of-service-` で taint を外します。",
            ],
        },
    ],
};
