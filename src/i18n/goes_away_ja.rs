//! 第 6 章「Node が去る」の日本語。

use super::{ChapterText, StepText};

pub(super) static NODE_GOES_AWAY: ChapterText = ChapterText {
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
