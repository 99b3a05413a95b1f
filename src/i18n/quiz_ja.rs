//! 日本語: question mode's questions (`crate::quiz`), by id. `{0}`, `{1}`, … are the facts each
//! question's derivation finds in the timeline.

use super::QuestionText;

pub(super) fn question(id: &str) -> Option<&'static QuestionText> {
    Some(match id {
        "registration-first-ready" => &QuestionText {
            prompt: "node-1 の kubelet がこれから Node を POST します。ランタイムのネットワークはまだ準備できていません（`NetworkReady=false`）。新しい Node の `Ready` 条件はどうなるでしょう？",
            options: &["`True`", "`False`", "`Unknown`"],
            why: "kubelet は見たままを報告します。ランタイムのネットワークが準備できていないので、最初のステータスから `Ready` は `False`、理由は `KubeletNotReady` です。`Unknown` を書くのはノードライフサイクルコントローラーだけで、ハートビートのないまま `--node-monitor-grace-period` が過ぎたときです。新しい Node がそこから始まることはありません。",
        },
        "registration-pods-order" => &QuestionText {
            prompt: "node-1 がまだ Ready でないうちに、普通の Pod をいま作り、数秒後に `node.kubernetes.io/not-ready` を許容する Pod を作ります。起きる順に並べてください。",
            options: &[
                "node-1 が Ready になる（`NodeReady`）",
                "許容する Pod のコンテナが起動する",
                "許容する Pod が node-1 にバインドされる",
                "普通の Pod が node-1 にバインドされる",
            ],
            why: "スケジューラーが見るのは条件ではなく taint です。許容する Pod はすぐにバインドされ、普通の Pod は `NodeReady` のあと not-ready の taint が外れてからです。バインドされても動くとは限りません。許容する Pod はネットワークを待ち、kubelet は同期に失敗した Pod を 10 秒ごとにしか再試行しないので、バインドされてすぐ起動した普通の Pod が先に動きます。",
        },
        "registration-report-frequency" => &QuestionText {
            prompt: "これから node-1 では何も変わりません。kubelet は最後のステータス PATCH の何秒後に次の PATCH を送るでしょう？",
            options: &[],
            why: "kubelet は `nodeStatusUpdateFrequency`（{2} 秒）ごとにステータスを計算し直しますが、変化のないステータスを PATCH するのは前回の報告から `nodeStatusReportFrequency`（{1} 秒）が過ぎたときだけです。ここでは {0} 秒後です。コントロールプレーンが見ているハートビートは 10 秒ごとに更新される Lease で、この PATCH は遅いほうのハートビートです。",
        },
        "node-failure-ready" => &QuestionText {
            prompt: "node-1 の kubelet がこれから止まります。コントロールプレーンが気づいたとき、node-1 の `Ready` 条件はどうなるでしょう？",
            options: &["`True`", "`False`", "`Unknown`"],
            why: "止まった kubelet は何も報告しないので、`False` を書く者はいません。ノードライフサイクルコントローラーは Lease の `renewTime` が動かなくなったのを見て、`--node-monitor-grace-period`（Kubernetes {1} では {0} 秒）のあと `Ready` を `Unknown`、理由 `NodeStatusUnknown` にします。ノードが健全かどうか分からない、という意味です。",
        },
        "node-failure-unknown-after" => &QuestionText {
            prompt: "node-1 の kubelet が止まったところです。最後の Lease 更新の何秒後に、コントローラーは `Unknown` を書くでしょう？",
            options: &[],
            why: "コントローラーは最後の更新に気づいた巡回の時点から `--node-monitor-grace-period`（Kubernetes {2} では {1} 秒）を数え、巡回は `--node-monitor-period`（{3} 秒）ごとなので、猶予期間を過ぎた最初の巡回で `Unknown` を書きます。ここでは更新から {0} 秒後です。Lease 自身の `leaseDurationSeconds` は関係しません。",
        },
        "node-failure-order" => &QuestionText {
            prompt: "node-1 の kubelet が黙ってから、猶予期間がほぼ過ぎました。起きる順に並べてください。",
            options: &[
                "node-1 の Pod が削除される（`TaintManagerEviction`）",
                "node-1 に `node.kubernetes.io/unreachable:NoExecute` の taint が付く",
                "代わりの Pod が動き出す",
                "`NodeNotReady`",
            ],
            why: "`NodeNotReady` は `Unknown` の書き込みと同時で、NoExecute の taint はコントローラーの次の巡回で付きます。taint eviction コントローラーが Pod を削除するのは、その taint に対する `tolerationSeconds` が尽きたときで、そのあとで初めて ReplicaSet が代わりの Pod を作り、スケジューラーが配置します。",
        },
        "node-failure-toleration" => &QuestionText {
            prompt: "node-1 にこれから `node.kubernetes.io/unreachable:NoExecute` の taint が付きます。その何秒後に Pod は削除対象になるでしょう？",
            options: &[],
            why: "アドミッションのとき DefaultTolerationSeconds が、unreachable の taint を `tolerationSeconds` {1} で許容する設定を Pod に加えています。taint eviction コントローラーは taint が付いてからその時間だけ Pod を残し、それから削除します。ここでは {0} 秒後です。自分で `tolerationSeconds` を書いた Pod はその時間になります。",
        },
        "node-failure-replacement" => &QuestionText {
            prompt: "node-1 の Pod がこれから削除され、ReplicaSet が代わりの Pod を作ります。代わりの Pod はステージのどのノードにバインドされるでしょう？",
            options: &[],
            why: "スケジューラーの TaintToleration フィルターは {1} を外します。新しい Pod が許容しない `node.kubernetes.io/unreachable:NoSchedule` が付いているからです。代わりの Pod は {0} にバインドされます。",
        },
        "kubelet-restart-post" => &QuestionText {
            prompt: "node-1 の kubelet が {0} に再び起動し、最初の登録と同じように Node を POST します。API サーバーは何と答えるでしょう？",
            options: &["`201 Created`", "`409 AlreadyExists`", "`403 Forbidden`"],
            why: "`NotReady` になっても Node は削除されません。オブジェクトは残っているので POST は `409 AlreadyExists` になります。`--register-node` の kubelet はそのあと既存の Node を GET して、自分のものとして引き継ぎます。",
        },
        "kubelet-restart-pod-node" => &QuestionText {
            prompt: "Pod の許容時間が尽きる前に kubelet が戻ってきます。node-1 が再び Ready になったとき、web の Pod はどのノードで動いているでしょう？",
            options: &[],
            why: "Pod は削除されていません。削除は NoExecute の taint から `tolerationSeconds` 後に予定されていただけです。コントローラーが taint を外すと taint eviction コントローラーが予定を取り消し、{0} で動き続けていたコンテナが再び Ready と報告されます。何も移動していません。",
        },
        "kubelet-restart-order" => &QuestionText {
            prompt: "node-1 の kubelet が起動したところです。起きる順に並べてください。",
            options: &[
                "`NodeReady`",
                "予定されていた削除が取り消される",
                "Lease が更新される",
                "kubelet が Node を POST する",
            ],
            why: "Lease のループはすぐに始まり、残っている Lease を更新します。登録は Node を POST し、`409 AlreadyExists` のあと既存の Node を引き継ぎます。ランタイムと PLEG のチェックが通ると `NodeReady` です。削除の取り消しは、コントローラーが NoExecute の taint を外したときで、その巡回は `--node-monitor-period`（{0} 秒）ごとです。",
        },
        "zone-outage-taint-interval" => &QuestionText {
            prompt: "eu-west-1b の最初のノードに `NoExecute` taint が付きました。このゾーンのほかのノードも Unknown です。次のノードに taint が付くのは何秒後でしょう?",
            options: &[],
            why: "ゾーンごとに taint 付与のキューがあり、ゾーンが `Normal` の間は `--node-eviction-rate` (毎秒 0.1 ノード) のトークンバケットで取り出されます。最初のノードはすぐに、次のノードは {0} 後です。ネットワークが不安定でも、一度のパスでゾーンが空になることはありません。",
        },
        "zone-outage-partial" => &QuestionText {
            prompt: "eu-west-1b のノードがさらに故障しました。1 分以内に、ゾーンの 55 % を超えるノードが Ready でなくなります。そのときコントローラーは、このゾーンの taint 付与をどうするでしょう?",
            options: &["10 秒に 1 ノードのまま続ける", "100 秒に 1 ノードに減速する", "taint の付与をやめる"],
            why: "`--unhealthy-zone-threshold` (55 %、かつ 3 ノード以上) を超えるとゾーンは `PartialDisruption` になります。速度は、ゾーンのノード数が `--large-cluster-size-threshold` (50) を超えていれば `--secondary-node-eviction-rate` (毎秒 0.01)、そうでなければ 0 です。このゾーンは {0} ノードです。半分が見えなくなったゾーンは、停止よりもネットワークからの切断の可能性が高いため、コントローラーは空にしません。",
        },
        "zone-outage-mark" => &QuestionText {
            prompt: "eu-west-1b の残りのノードも API サーバーに届かなくなりました。このゾーンの Node が Lease を更新することはもうありません。コントローラーがこのゾーンを `FullDisruption` とログに書くのは、いまから何秒後でしょう?",
            options: &[],
            why: "コントローラーは猶予期間 ({1} 秒) を待ち、そのあと監視パスが応答のない Node を 1 台ずつ `Unknown` にします。その状態、Pod ごとの状態の書き込み、`unreachable:NoSchedule` taint、それらのイベントは、すべてコントローラーのクライアントを通り、バースト 30 のあとは毎秒 20 リクエストです。ゾーンの状態はパスがすべての Node を調べ終えてから数えられるので、ここでは切断から {0} 秒後で、大きなフリートではさらにかかります。",
        },
        "zone-outage-master" => &QuestionText {
            prompt: "API サーバーがすべての kubelet を見失いました。1 分以内に、すべてのゾーンが完全に中断 (FullDisruption) します。eu-west-1b のノードにすでに付いている `NoExecute` taint はどうなるでしょう?",
            options: &["取り除かれる", "そのまま残る", "すべてのノードに付く"],
            why: "すべてのゾーンが `FullDisruption` になると、コントローラーはマスター中断モードに入ります。コントロールプレーン自身のネットワーク障害の可能性が高いため、`NoExecute` taint を取り除き (`NoSchedule` は残します)、保留中の退避を取り消します。どれかのノードが Ready に戻るまで何も退避されず、戻ったときには全ノードの猶予期間が最初から始まります。",
        },
        "maintenance-evictions" => &QuestionText {
            prompt: "`kubectl drain node-1 --ignore-daemonsets` が node-1 の web Pod 2 つを退避しようとしています。退避はどう送られるでしょう？",
            options: &[
                "一斉に: Pod ごとに Eviction を 1 つずつ、同じ瞬間に POST",
                "1 つずつ: 前の Pod が消えてから次の Pod の Eviction",
            ],
            why: "kubectl は Pod ごとに goroutine を 1 つ起こし、それぞれがすぐに Eviction を POST します。1 つずつ通すのは kubectl ではなく予算です。",
        },
        "maintenance-retry" => &QuestionText {
            prompt: "2 つ目の退避は予算から `429 Too Many Requests` を受け取りました。kubectl は何秒後にその Pod をもう一度試すでしょう？",
            options: &[],
            why: "429 の後、kubectl は `(will retry after 5s)` 付きでエラーを表示し、5 秒眠ってから Eviction をもう一度 POST します。ここでは {0}。予算が許すか `--timeout` が尽きるまで続けます。",
        },
        "maintenance-left" => &QuestionText {
            prompt: "kubectl が `node/node-1 drained` と表示したとき、node-1 でまだ動いているのは何でしょう？",
            options: &["何もない", "DaemonSet の Pod (node-agent)", "web の Pod の 1 つ"],
            why: "`--ignore-daemonsets` 付きの drain は DaemonSet の Pod に手を付けません。`unschedulable` を許容しており、退避してもコントローラーが戻すだけだからです。それ以外の Pod はすべて退避されました。",
        },
        "node-goes-away-phase" => &QuestionText {
            prompt: "node-1 が `shutdownGracePeriod: 30s` でグレースフルにシャットダウンしようとしています。web Pod は最後にどの phase になるでしょう?",
            options: &["`Running`", "`Failed`", "`Succeeded`"],
            why: "シャットダウンマネージャーは、`phase: Failed` (すでに成功していた Pod を除く)、reason `Terminated`、`DisruptionTarget` 条件を設定するステータス関数付きで各 Pod を kill します。削除はしません。Pod は Failed の Pod として API に残り、ReplicaSet が代わりを作ります。",
        },
        "node-goes-away-orphans" => &QuestionText {
            prompt: "Pod が割り当てられたまま、node-3 が `kubectl delete node` で削除されました。削除から何秒後に、PodGC が最初の Pod を強制削除するでしょう?",
            options: &[],
            why: "PodGC は 20 秒ごと (`gcCheckPeriod`) に動きます。存在しない Node 上の Pod を最初に見つけたパスが、その名前を 40 秒 (`quarantineTime`) 隔離します。その後の最初のパスが GET で Node が消えたことを確かめ、Pod を Failed にして削除します: ここでは {0}。",
        },
        "node-goes-away-db-node" => &QuestionText {
            prompt: "node-2 には今 `node.kubernetes.io/out-of-service` が付いています。StatefulSet の `db-0` が戻ってくるとき、どの Node で動くでしょう?",
            options: &[],
            why: "PodGC が終了中の `db-0` を強制削除するので、StatefulSet コントローラーは同じ名前の Pod をもう一度作れます。scheduler は node-1 も node-2 も使えない (Ready でなく taint 付き) ので、新しい `db-0` は {0} にバインドされ、古いアタッチメントが消えるとボリュームがそこにアタッチされます。",
        },
        _ => return None,
    })
}
