//! 日本語 (Japanese).
//!
//! Written for engineers, not word for word: Kubernetes identifiers (fields, reasons, messages,
//! kubectl output, flags) stay exactly as Kubernetes prints them, in `backticks`; the prose
//! around them is ordinary technical Japanese (です・ます, 全角の句読点).

use super::Key;

pub(super) fn text(key: Key) -> &'static str {
    match key {
        Key::AppTitle => "nodeline",
        Key::Tagline => "マシンが Kubernetes の Node になるまで、そして黙ったとき、クラスタがどう気づくか",
        Key::SkipToContent => "本編へスキップ",
        Key::ChapterNav => "章",
        Key::ChapterLabel => "第 {0} 章",
        Key::StepLabel => "ステップ {0}",
        Key::StepOf => "ステップ {0} / {1}",
        Key::PlayFromThisStep => "このステップから再生",
        Key::ReadStep => "このステップの説明を読む",
        Key::LinkCopied => "リンクをコピーしました: {0}",
        Key::StepNotReached => "このタイムラインではこのステップは起きません。あなたの操作で筋書きが変わりました。",
        Key::StepNotAtThisSize => {
            "{0} 台ではこのステップは起きません。筋書きは {1} 台向けに書かれていて、この台数のフリートではここまで至りません。"
        }
        Key::PreviousStep => "前のステップ",
        Key::NextStep => "次のステップ",
        Key::Play => "再生",
        Key::Pause => "一時停止",
        Key::Replay => "もう一度再生",
        Key::Speed => "速度",
        Key::SkipQuiet => "静かな区間を早送り",
        Key::FastForwarding => "静かな区間を早送り中 (×{0})。時計は本当の経過時間を示します",
        Key::Clock => "シミュレーション時刻",
        Key::Timeline => "タイムライン",
        Key::TimelineHelp => {
            "ドラッグするか矢印キーで時間を移動します。番号付きの印は章のステップ、細い目盛りはリクエストとイベントです。"
        }
        Key::Requests => "リクエスト",
        Key::EventsTrack => "イベント",
        Key::Stage => "ステージ",
        Key::StageDescription => {
            "マシン、コントロールプレーン、kube-node-lease namespace と、API サーバーへ向かう各リクエストの図です。"
        }
        Key::Machine => "マシン {0}",
        Key::KubeletRunning => "kubelet 稼働中",
        Key::KubeletStopped => "kubelet 停止",
        Key::MachinePoweredOff => "マシンの電源オフ",
        Key::VolumeAttachedHere => "ボリューム {0} アタッチ済み",
        Key::VolumeAttachingHere => "ボリューム {0} アタッチ中",
        Key::VolumeUsedBy => "{0}（Pod {1} が使用）",
        Key::StatefulSetIdentity => "StatefulSet {0}・序数 {1}",
        Key::KubeletRestarting => "kubelet が終了、systemd が 10 秒後に再起動",
        Key::RuntimeUp => "containerd 稼働中",
        Key::RuntimeDown => "containerd 停止",
        Key::CniNotReady => "CNI 設定なし: NetworkReady=false",
        Key::BootstrapOnly => "ブートストラップトークンのみ、証明書なし",
        Key::BootstrapOnlyLabel => {
            "kubelet が持つのはブートストラップ用 kubeconfig {0} だけで、{1} にはまだ証明書がありません"
        }
        Key::CertificateLink => "{0} ({1} へのシンボリックリンク)",
        Key::NetworkOk => "API サーバーへの通信あり",
        Key::NetworkCut => "API サーバーへの通信が切断",
        Key::ContainersRunning => "コンテナ {0} 個が稼働中",
        Key::NoContainers => "コンテナなし",
        Key::ControlPlane => "コントロールプレーン",
        Key::ApiServer => "kube-apiserver",
        Key::NodeLifecycleController => "node lifecycle controller",
        Key::Scheduler => "kube-scheduler",
        Key::TaintEvictionController => "taint eviction controller",
        Key::ReplicaSetController => "ReplicaSet controller",
        Key::LeaseNamespace => "namespace kube-node-lease",
        Key::LeaseRenewed => "{0} 前に更新",
        Key::NoLease => "Lease はまだありません",
        Key::NodeObject => "Node {0}",
        Key::NoNodeYet => "Node オブジェクトはまだありません",
        Key::Sandbox => "サンドボックス",
        Key::SandboxHelp => "再生位置で筋書きを変えます。過去はそのまま、未来をシミュレーションし直します。",
        Key::ActingOn => "マシン",
        Key::KillKubelet => "kubelet を停止",
        Key::StartKubelet => "kubelet を起動",
        Key::StopRuntime => "コンテナランタイムを停止",
        Key::StartRuntime => "コンテナランタイムを起動",
        Key::CutNetwork => "kubelet の通信を切断",
        Key::RestoreNetwork => "kubelet の通信を復旧",
        Key::CreatePod => "Pod を作成",
        Key::CreateToleratingPod => "not-ready を許容する Pod を作成",
        Key::CreateBestEffortPod => "BestEffort の Pod を作成",
        Key::CreatePriorityPod => "優先度の高い Pod を作成",
        Key::AddMachine => "マシンを追加",
        Key::AddDuplicateMachine => "同じ名前のマシンを追加",
        Key::LabelNodeRole => "node-role ラベルを付ける",
        Key::Cordon => "cordon する",
        Key::Uncordon => "uncordon する",
        Key::Drain => "drain する",
        Key::CreatePdb => "PodDisruptionBudget を作る",
        Key::BudgetField => "バジェット",
        Key::BudgetValue => "数または割合",
        Key::BudgetRefused => "kubectl はこれを拒否します:",
        Key::CreateDaemonSet => "DaemonSet を作る",
        Key::CreateCache => "ノードローカルのキャッシュを作る",
        Key::ShutdownMachine => "マシンをシャットダウン",
        Key::PowerOffMachine => "マシンの電源を切る",
        Key::DeleteNodeAction => "Node を削除",
        Key::DeletePodAction => "Pod を削除",
        Key::LeakMemoryAction => "Pod でメモリーをリークさせる",
        Key::StopLeakAction => "メモリーリークを止める",
        Key::ApproveCsrAction => "証明書署名要求を承認する",
        Key::DenyCsrAction => "証明書署名要求を拒否する",
        Key::DeleteBootstrapTokenAction => "ブートストラップトークンを削除する",
        Key::DeleteAutoApproveBindingAction => "CSR の自動承認のバインディングを削除する",
        Key::LogsAction => "コンテナーのログを読む",
        Key::ExecAction => "コンテナーでコマンドを実行する",
        Key::TaintOutOfService => "out-of-service taint を付ける",
        Key::UntaintOutOfService => "out-of-service taint を外す",
        Key::TaintNode => "taint を変更",
        Key::CreateStatefulSet => "StatefulSet を作成",
        Key::CutZone => "ゾーンを切り離す",
        Key::RestoreZone => "ゾーンを戻す",
        Key::CutControlPlane => "コントロールプレーンを切り離す",
        Key::RestoreControlPlane => "コントロールプレーンを戻す",
        Key::CutNodes => "ゾーンの Node を落とす",
        Key::ActionUnavailable => "今はできません: {0}",
        Key::ForkNotice => "あなたの操作: {0}",
        Key::ResetSandbox => "章の筋書きに戻す",
        Key::ResetSandboxStory => "ストーリーの筋書きに戻す",
        Key::AccountTitle => "あなたの筋書き",
        Key::AccountDeparted => "{0} にあなたが筋書きを変えました: {1}。",
        Key::AccountHappened => "起きたこと",
        Key::AccountNext => "この先に起きること",
        Key::AccountEarlier => "それ以前 {0} 件",
        Key::AccountStory => "章の筋書き",
        Key::AccountStoryHelp => "あなたの操作がなければ章が語る流れです。",
        Key::AccountWritten => "ストーリーの筋書き",
        Key::AccountWrittenHelp => "あなたの操作がなければストーリーが語る流れです。",
        Key::AccountRepeated => "{0}（{1} 回、最後は {2}）",
        Key::AccountByYou => "あなた: {0}",
        Key::AccountByStory => "筋書き: {0}",
        Key::AccountRefused => "{0}（拒否: {1}）",
        Key::AccountRan => "`{0}` を実行",
        Key::AccountOther => "{1} で「{0}」",
        Key::AccountKubeletStopped => "{0} の kubelet が停止",
        Key::AccountKubeletStarted => "{0} の kubelet が起動",
        Key::AccountRuntimeStopped => "{0} の containerd が停止",
        Key::AccountRuntimeStarted => "{0} の containerd が起動",
        Key::AccountNetworkCut => "{0} のネットワークを切断",
        Key::AccountNetworkRestored => "{0} のネットワークを復旧",
        Key::AccountPodCreated => "Pod を作成",
        Key::AccountBestEffortCreated => "{0} に BestEffort の Pod を作成",
        Key::AccountPriorityPodCreated => "{0} に PriorityClass `high-priority` (優先度 1000000) の Pod を作成",
        Key::AccountMemoryLeaking => "Pod {0} がメモリリークを開始",
        Key::AccountLeakStopped => "Pod {0} のメモリリークが止まった",
        Key::AccountShutdown => "{0} をシャットダウン（`systemctl poweroff`）",
        Key::AccountPoweredOff => "{0} の電源が落ちた",
        Key::AccountZoneCut => "ゾーン {0} を API サーバーから切断",
        Key::AccountZoneRestored => "ゾーン {0} を再接続",
        Key::AccountNodesCut => "ゾーン {1} のノード {0} 台を API サーバーから切断",
        Key::AccountControlPlaneCut => "コントロールプレーンをすべての kubelet から切断",
        Key::AccountControlPlaneRestored => "コントロールプレーンを再接続",
        Key::AccountNodeReady => "{0} が Ready になりました（`{1}`）。",
        Key::AccountNodeUnknown => "ノードライフサイクルコントローラーが {0} を Unknown にしました（`{1}`）。",
        Key::AccountNodeNotReady => "{0} が NotReady になりました（`{1}`）。",
        Key::AccountTaintAdded => "{0} に taint `{1}` が付きました。",
        Key::AccountTaintRemoved => "{0} から taint `{1}` が外れました。",
        Key::AccountNodeDeleted => "Node {0} が削除されました。",
        Key::AccountPodGone => "Pod {0} が API サーバーから消えました。",
        Key::AccountPodFailed => "Pod {0} が失敗しました（`{1}`）。",
        Key::AccountMarkedForDeletion => "taint eviction コントローラーが Pod {0} を削除しました。",
        Key::AccountDeletionCancelled => "taint eviction コントローラーが Pod {0} の削除を取り消しました。",
        Key::AccountScheduled => "スケジューラーが Pod {0} を {1} に配置しました。",
        Key::AccountFailedScheduling => "Pod {0} は Pending です: `{1}`",
        Key::AccountKubectlPrinted => "kubectl: `{0}`",
        Key::AccountZoneState => "ゾーン {0} は `{1}` になりました。",
        Key::AccountMasterDisruption => {
            "Ready な Node がありません。ノードライフサイクルコントローラーはマスター障害モードに入り、何も退避させません。"
        }
        Key::AccountMasterDisruptionOver => "Ready な Node が戻りました。マスター障害モードが終わります。",
        Key::AccountNextUnknown => {
            "{0} の Lease はもう更新されません（最後は {1}）。{2} の猶予期間が過ぎると、ノードライフサイクルコントローラーが {3} ごろ {0} を Unknown にし、unreachable の taint を付けます。"
        }
        Key::AccountNextRuntimeDown => {
            "{0} の kubelet は NotReady を報告します。コンテナランタイムが止まっているためです。"
        }
        Key::AccountNextReadyAgain => {
            "{0} の kubelet が戻りました。次のステータス更新で {0} は Ready になり、コントローラーが taint を外します。"
        }
        Key::AccountNextCordoned => "`kubectl uncordon {0}` を実行するまで、{0} に新しい Pod は配置されません。",
        Key::AccountNextEviction => {
            "taint eviction コントローラーが {2} ごろ {1} の {0} を削除します（`tolerationSeconds: {3}`）。その後 ReplicaSet が条件に合うノードで置き換えます。"
        }
        Key::AccountNextStuck => {
            "Pod {0} は {1} で Terminating のままです。停止を確認する kubelet がいないためです。Node を削除するか `node.kubernetes.io/out-of-service` の taint を付けると、PodGC が削除します。"
        }
        Key::AccountNextPressureEvict => {
            "{0} の `memory.available` は `{1}` (`evictionHard`) を下回っています。kubelet のエビクションマネージャーはラウンドごと (10 秒ごと) に、順位 (要求を超えた使用量、次に低い優先度、次に大きい使用量) の先頭の Pod を 1 つ退去させ、しきい値を上回るまで続けます。"
        }
        Key::AccountNextPressureLeak => {
            "リークが {0} のメモリを使い尽くしつつあります。`memory.available` は {2} ごろ `{1}` を下回り、kubelet のエビクションマネージャーはその後 1 ラウンドに 1 つずつ Pod を退去させます。"
        }
        Key::AccountNextPressureSoft => {
            "{0} の `memory.available` は `{1}` (`evictionSoft`) を下回っています。kubelet はそれを最初に見たラウンドから `MemoryPressure` を報告し、しきい値に達した状態が `evictionSoftGracePeriod` ({2}) 続くと、エビクションマネージャーが 1 ラウンドに 1 つずつ Pod を退去させます。"
        }
        Key::AccountNextPressureClears => {
            "{0} で最後にしきい値に達したのは {1} です。kubelet は `evictionPressureTransitionPeriod` ({3}) が過ぎるまで `MemoryPressure` を報告し、{2} ごろから (次のラウンド、続いて次のステータス更新で) 外します。その後ノードライフサイクルコントローラーが `node.kubernetes.io/memory-pressure:NoSchedule` の taint を外します。"
        }
        Key::AccountNextPending => "Pod {0} は実行できるノードを待っています。",
        Key::AccountNextRetry => {
            "kubectl は 5 秒ごとに退避を再試行します。PodDisruptionBudget {0} が許す中断は {1} 件（正常な Pod {2} 個、必要 {3} 個）なので、バジェットが再び中断を許すまで毎回 429 が返ります。"
        }
        Key::AccountNextDrainWaits => "kubectl は退避した Pod が消えるのを 1 秒ごとに確認しながら待ちます。",
        Key::AccountNextMaster => {
            "マスター障害モード: どこかのゾーンに `Ready` な Node が戻るまで、taint も退避も行われません。"
        }
        Key::AccountNextZoneUnknown => {
            "{1} の {0} 台の Node が報告しなくなりました。{2} の猶予期間が過ぎると、ノードライフサイクルコントローラーが {3} ごろから `Unknown` にします。"
        }
        Key::AccountNextZoneState => {
            "ゾーン {0} は、ノードライフサイクルコントローラーの次の確認（5 秒ごと）で `{1}` になります。"
        }
        Key::AccountNextZoneReviving => {
            "{1} で kubelet が再び報告している Node: {0} 台。次のステータス更新で `Ready` になり、コントローラーが taint を外します。"
        }
        Key::AccountNextZoneWriting => {
            "ノードライフサイクルコントローラーはゾーン {0} の Node を判定済みですが、クライアントのトークン待ちでまだ書き込んでいません。書き込みが送られると、ゾーンの新しい状態を記録します。"
        }
        Key::AccountNextZoneTaints => {
            "{1} の Ready でない {0} 台の Node が `NoExecute` の taint を待っています（{2}）。最後は {3} ごろです。"
        }
        Key::AccountNextZoneNoTaints => {
            "{1} の Ready でない {0} 台の Node が `NoExecute` の taint を待っていますが、taint は止まっています（{2}）。Pod はそのままです。"
        }
        Key::AccountNextZoneEvictions => {
            "{1} の `NoExecute` の taint が付いた Node 上の {0} 個の Pod は、`tolerationSeconds` が切れると {2} ごろから退避されます。ReplicaSet が Ready な Node で置き換えます。"
        }
        Key::AccountNextNothing => "あなたが次に操作するまで、これ以上の変化は予想されません。",
        Key::Inspector => "インスペクター",
        Key::TabNode => "Node",
        Key::TabLease => "Lease",
        Key::TabPods => "Pod",
        Key::TabEvents => "イベント",
        Key::Conditions => "Conditions",
        Key::ColType => "Type",
        Key::ColStatus => "Status",
        Key::ColLastHeartbeatTime => "LastHeartbeatTime",
        Key::ColLastTransitionTime => "LastTransitionTime",
        Key::ColReason => "Reason",
        Key::ColMessage => "Message",
        Key::Taints => "Taints",
        Key::NoTaints => "なし",
        Key::ColKey => "Key",
        Key::ColEffect => "Effect",
        Key::ColTimeAdded => "TimeAdded",
        Key::HolderIdentity => "HolderIdentity",
        Key::RenewTime => "RenewTime",
        Key::LeaseDuration => "LeaseDurationSeconds",
        Key::RenewedAgo => "{0} 前",
        Key::GraceCountdown => "猶予期間 {1} の残りはおよそ {0} です。",
        Key::GracePassed => "コントローラーが最後に見た更新から猶予期間 ({0}) が過ぎました。",
        Key::ColName => "名前",
        Key::ColPhase => "状態",
        Key::ColReady => "Ready",
        Key::ColNode => "Node",
        Key::ColAge => "経過",
        Key::ColPv => "PV",
        Key::ColAttached => "アタッチ済み",
        Key::VolumeAttachments => "VolumeAttachment の一覧",
        Key::NoPods => "Pod はありません",
        Key::Memory => "メモリ",
        Key::MemoryCapacity => "容量",
        Key::MemoryAllocatable => "割り当て可能",
        Key::MemoryHard => "ハード退去しきい値",
        Key::MemorySoft => "ソフト退去しきい値",
        Key::MemorySoftValue => "{0} (達してから {1} 続くと退去)",
        Key::ColContainer => "コンテナ",
        Key::ColUsage => "使用量 (ワーキングセット)",
        Key::ColRequest => "要求",
        Key::ColLimit => "上限",
        Key::MemoryAboveRequest => "要求超過: {0}",
        Key::MemoryWithinRequest => "要求以内: {0}",
        Key::ColLastSeen => "最終観測",
        Key::ColObject => "対象",
        Key::NoEvents => "イベントはありません",
        Key::NotesTitle => "お知らせ",
        Key::Dismiss => "閉じる",
        Key::NoticeUnknownChapter => "「{1}」という章はありません ({0})。最初の章を表示します。",
        Key::NoticeBadStory => {
            "「{1}」はストーリーの名前ではありません ({0}: 英小文字、数字、ダッシュ)。最初の章を表示します。"
        }
        Key::NoticeStoryMissing => "このサイトにストーリー「{0}」はありません ({1}: {2})。最初の章を表示します。",
        Key::NoticeStoryUnreachable => "ストーリー「{0}」を取得できませんでした ({1})。最初の章を表示します。",
        Key::NoticeStoryBroken => "ストーリー「{0}」を読めませんでした。最初の章を表示します。問題は次のとおりです。",
        Key::NoticeStoryProblem => "{0}:{1}: {2}",
        Key::NoticeStorySingleFile => {
            "nodeline.html にはストーリー「{0}」が入っていません (作られたときにサイトにあったストーリーだけが入っており、外からは何も読みません)。サイトで開いてください。最初の章を表示します。"
        }
        Key::StoryLabel => "ストーリー",
        Key::MoreStories => "ほかのストーリー",
        Key::StoryEnglishOnly => "このストーリーは英語だけで書かれています。",
        Key::NoticeBadStep => "「{1}」はステップ番号ではありません ({0})。最初のステップから始めます。",
        Key::NoticeStepOutOfRange => "この章にステップ {1} はありません ({0})。ステップ {2} を使います。",
        Key::NoticeBadFlag => "「{1}」は 0 でも 1 でもありません ({0})。無視しました。",
        Key::NoticeBadTime => "「{1}」は 90s や 2m30s のような時間ではありません ({0})。無視しました。",
        Key::NoticeTimeTooLate => "「{1}」はこのページがシミュレーションする範囲より後です ({0})。2h を使います。",
        Key::NoticeBadAction => "「{1}」はこのページが知っている操作ではありません ({0})。取り除きました。",
        Key::NoticeBadSpeed => "「{1}」は選べる速度ではありません ({0})。1× を使います。",
        Key::NoticeBadTheme => "「{1}」は light でも dark でもありません ({0})。システムの設定に従います。",
        Key::NoticeBadLang => "「{1}」はこのページが話す言語ではありません ({0})。ブラウザーの言語を使います。",
        Key::NoticeBadOrigin => {
            "「{1}」は https://docs.example のような Web オリジンではありません ({0})。無視しました。"
        }
        Key::NoticeBadProfile => {
            "「{1}」はこのページが扱う Kubernetes のバージョンではありません ({0}: 1.34 か 1.31)。1.34 を使います。"
        }
        Key::NoticeBadNodes => {
            "「{1}」はノード数ではありません ({0}: 3 から 1000)。フリートは元の台数のままです (フリートの章では 150 台)。"
        }
        Key::NoticeNodesOutOfRange => "{1} 台のフリートは作れません ({0}: 3 から 1000)。{2} 台を使います。",
        Key::NoticeStepMissing => "リンクのステップ {0} はここでは起きないため、筋書きの最初から始めます。{1}",
        Key::NoticeNodesNotAFleet => {
            "台数を変えられるのはフリートだけで、これはフリートではありません。マシンは書かれたとおりです ({0}={1} は使いません)。"
        }
        Key::ShutdownSettings => "グレースフルノードシャットダウン（すべての kubelet）",
        Key::ShutdownApply => "適用してやり直す",
        Key::ShutdownHelp => {
            "kubelet の設定ファイルと同じ Go の時間表記です（空欄は 0s、両方 0s で無効）。章はあなたの操作とともに最初から計算し直されます。"
        }
        Key::ShutdownRefused => "kubelet はこの設定を受け付けません: {0}",
        Key::NoticeBadShutdown => {
            "kubelet は {0}={1} を受け付けません ({2})。各マシンは章のシャットダウン設定のままです。"
        }
        Key::NoticeUnknownParam => "リンクにこのページが知らないパラメーターがあります: {0}={1}。無視しました。",
        Key::NoticeRepeated => "リンクで {0} が複数回指定されています。最初の値を使います。",
        Key::NoticeActionRejected => "{0} は効果がありませんでした: {1}。",
        Key::ReducedMotion => "「視差効果を減らす」が有効です。状態はアニメーションなしで切り替わります。",
        Key::Shortcuts => "キーボードショートカット",
        Key::ShortcutsTitle => "キーボードショートカット",
        Key::ShortcutPlayPause => "再生 / 一時停止",
        Key::ShortcutPrevStep => "前のステップ",
        Key::ShortcutNextStep => "次のステップ",
        Key::ShortcutSlower => "遅く",
        Key::ShortcutFaster => "速く",
        Key::ShortcutHelp => "この一覧の表示 / 非表示",
        Key::ShortcutClose => "この一覧を閉じる",
        Key::Close => "閉じる",
        Key::Language => "言語",
        Key::KubernetesVersion => "Kubernetes のバージョン",
        Key::ErrorTitle => "問題が発生しました",
        Key::ErrorBody => {
            "nodeline で内部エラーが起きて停止しました。ページを再読み込みすると、開いたリンクの状態からやり直せます。"
        }
        Key::Reload => "再読み込み",
        Key::ChapterEnd => {
            "章の筋書きはここまでです。ステップ 1 から見直すか、サンドボックスで筋書きを変えてみてください。"
        }
        Key::StoryEnd => {
            "ストーリーはここまでです。ステップ 1 から見直すか、サンドボックスで筋書きを変えてみてください。"
        }
        Key::PlayFromStep => "ステップ {0} から再生:",
        Key::StepsNav => "この章のステップ",
        Key::StepsNavStory => "このストーリーのステップ",
        Key::InspectNode => "調べる Node",
        Key::ChangedLegend => "印の付いたセルは、シミュレーション時間で直近 2 秒以内に変わりました。",
        Key::EventsCapped => "新しいイベント {0} 件を表示しています。",
        Key::GracePeriodTitle => "Node monitor grace period",
        Key::GraceExplain => {
            "node lifecycle controller は、heartbeat、Lease の更新、status の更新のどれかを最後に見たチェック (5 秒ごと) から、自分の時計で数えます。猶予期間が過ぎた後の最初のチェックで node を Unknown にします。leaseDurationSeconds は関係しません。"
        }
        Key::GraceNextCheck => "コントローラーは次のチェックで node を Unknown にします。",
        Key::GraceNodeUnknown => {
            "コントローラーは node を Unknown にしました。kubelet が再び status を送るまでこのままです。"
        }
        Key::MachineHostname => "{0} (ホスト名 {1})",
        Key::TimelineRegion => "再生",
        Key::SpeedValue => "{0}×",
        Key::StepMarkerTitle => "ステップ {0}: {1} ({2})",
        Key::StepGroup => "ステップ {0}〜{1}",
        Key::StepOfStory => "章のストーリーのステップ {0}: {1}（あなたの操作でこのタイムラインは変わりました）",
        Key::StepOfWritten => "ストーリーの筋書きのステップ {0}: {1}（あなたの操作でこのタイムラインは変わりました）",
        Key::StepStoryOnly => {
            "このステップは章の本来のストーリーのものです。あなたの操作で、このタイムラインで起きることは変わりました。"
        }
        Key::StepPendingTitle => "ステップ {0}: {1}（計算中。選ぶとそこまで今すぐ計算します）",
        Key::ShortcutsOnTimeline => "タイムライン上で",
        Key::ShortcutSeekSecond => "1 秒戻る / 進む",
        Key::ShortcutSeekTenSeconds => "10 秒戻る / 進む",
        Key::ShortcutSeekMinute => "1 分戻る / 進む",
        Key::ShortcutSeekEnds => "先頭 / 末尾へ",
        Key::KeyCapSpace => "Space",
        Key::KeyCapShift => "Shift",
        Key::KeyCapEsc => "Esc",
        Key::KeyCapPageUp => "Page Up",
        Key::KeyCapPageDown => "Page Down",
        Key::KeyCapHome => "Home",
        Key::KeyCapEnd => "End",
        Key::TrackLegendKubelet => "kubelet",
        Key::TrackLegendControllers => "コントローラー",
        Key::TrackLegendScheduler => "スケジューラー",
        Key::TrackLegendKubectl => "kubectl",
        Key::TrackLegendEviction => "退避 (201)",
        Key::TrackLegendEvictionRefused => "退避の拒否 (429)",
        Key::TrackLegendRoutine => "Lease の更新と読み取り",
        Key::TrackLegendTimeout => "タイムアウト",
        Key::TrackLegendNormal => "Normal",
        Key::TrackLegendWarning => "Warning",
        Key::StagePart => "{0}: {1}",
        Key::OneContainerRunning => "コンテナ 1 個が稼働中",
        Key::ControllerManager => "kube-controller-manager",
        Key::IpamTtlControllers => "node IPAM + TTL controller",
        Key::PodGcControllers => "PodGC, GC, StatefulSet, attach-detach",
        Key::KubectlClient => "kubectl (あなた)",
        Key::StoredObjects => "API サーバーが保存しているオブジェクト",
        Key::LeaseObject => "Lease {0}",
        Key::BudgetObject => "PodDisruptionBudget {0}",
        Key::LeaseStale => "{0} 前に更新 (猶予期間 {1} 超過)",
        Key::LastRequest => "直近のリクエスト ({0} から): {1}",
        Key::NoRequestYet => "リクエストはまだありません。",
        Key::RequestWaiting => "応答待ち",
        Key::RequestTimeout => "タイムアウト",
        Key::LinkCut => "切断",
        Key::MoreItems => "ほか {0} 件",
        Key::ShowAllPods => "{0} 個の Pod をすべて表示",
        Key::ShowFewerPods => "表示を減らす",
        Key::RefuseNoSuchMachine => "{0} という名前のマシンはありません",
        Key::RefuseKubeletNotRunning => "{0} の kubelet は動いていません",
        Key::RefuseKubeletAlreadyRunning => "{0} の kubelet はすでに動いています",
        Key::RefuseRuntimeAlreadyStopped => "{0} の containerd はすでに止まっています",
        Key::RefuseRuntimeAlreadyRunning => "{0} の containerd はすでに動いています",
        Key::RefuseNetworkAlreadyCut => "{0} の通信はすでに切断されています",
        Key::RefuseNetworkNotCut => "{0} の通信は切断されていません",
        Key::RefuseTooManyPods => "このサンドボックスの Pod は {0} 個までです",
        Key::RefuseTooManyMachines => "このサンドボックスのマシンは {0} 台までです",
        Key::RefuseDuplicateExists => "{0} という名前の 2 台目のマシンはすでにあります",
        Key::RefuseNodeNotRegistered => "Node {0} はまだ登録されていません",
        Key::RefuseMachineCannotReach => "{0} は API サーバーに届きません: ネットワークが切れています",
        Key::RefuseOutOfServiceTainted => "Node {0} にはすでに node.kubernetes.io/out-of-service taint があります",
        Key::RefuseOutOfServiceNotTainted => "Node {0} に node.kubernetes.io/out-of-service taint はありません",
        Key::RefuseStatefulSetExists => "StatefulSet {0} はすでにあります",
        Key::RefuseDeploymentExists => "Deployment {0} はすでにあります",
        Key::RefuseInvalidTaint => "「{0}」は Node と taint（NODE/KEY[=VALUE]:EFFECT）ではありません",
        Key::ChartTitle => "ゾーンごとの推移",
        Key::ChartLegend => {
            "赤: Ready でない Node。破線: NoExecute の taint が付いた Node。点線: 終了中の Pod。緑: 実行中の Pod。"
        }
        Key::ChartMax => "上端: {0}",
        Key::ChartValues => "{0}: Ready でない {1}、NoExecute {2}、終了中の Pod {3}、実行中 {4}。",
        Key::ChartPoint => {
            "{0}、ゾーン {1}: {2}。Ready {3} 台、Ready でない {4} 台、NoExecute 付き {5} 台。taint 付けは{6}。Pod: 実行中 {7}、終了中 {8}。"
        }
        Key::ChartPointName => "グラフ上の点",
        Key::ChartHelp => {
            "ゾーンのグラフにポインターを重ねるか、グラフにフォーカスして矢印キー (左右: 時刻、上下: ゾーン) を使うと、その点の値を読めます。"
        }
        Key::PodsMoved => "直近 1 分の Pod: {0}",
        Key::PodsMovedSummary => "直近 1 分で実行中の Pod が変わりました: {0}。",
        Key::RateStopped => "停止中",
        Key::RateEvery => "{0} 秒に 1 台",
        Key::ZoneSummary => {
            "ゾーン {0}: {1}。Ready {2} 台、Ready でない {3} 台、NoExecute 付き {4} 台。taint 付けは{5}、待ち {6} 台。Pod: 実行中 {7}、終了中 {8}。"
        }
        Key::ZoneStateNext => "{0} → {1}（次の確認で）",
        Key::ZoneStateWriting => "{0}（確認の書き込み中）",
        Key::ZoneCounts => "Ready {0} · Ready でない {1} · NoExecute {2}",
        Key::ZoneQueue => "NoExecute: {0} · 待ち {1} 台",
        Key::ZonePods => "Pod: 実行中 {0} · 終了中 {1}",
        Key::ClientWaiting => {
            "kube-controller-manager · ノードライフサイクルコントローラーのクライアント (毎秒 {0} リクエスト、バースト {1}): {2} リクエストが待機中、{3} 秒前から"
        }
        Key::ReplicaSetClientWaiting => {
            "kube-controller-manager · ReplicaSet コントローラーのクライアント (毎秒 {0} リクエスト、バースト {1}): {2} リクエストが待機中、{3} 秒前から"
        }
        Key::ClientIdle => {
            "kube-controller-manager · ノードライフサイクルコントローラーのクライアント (毎秒 {0} リクエスト、バースト {1}): 待機中のリクエストなし"
        }
        Key::MasterDisruption => "マスター障害モード: すべてのゾーンが完全に障害中で、何も退避されません。",
        Key::FleetStage => "フリート: 3 つのゾーン、Node 1 台につき 1 マス",
        Key::FleetStageHelp => {
            "四角: Ready。ひし形: NotReady。丸: Unknown。横棒: NoSchedule の taint、×: NoExecute の taint。Node をクリックするか、図にフォーカスして矢印キーで選ぶと詳しく見られます。"
        }
        Key::ControllerLog => "kube-controller-manager のログ",
        Key::FleetZone => "ゾーン",
        Key::FleetCount => "落とす Node の数",
        Key::AnnounceZoneState => "ゾーン {0} は {1} になりました。",
        Key::RefuseNoSuchZone => "{0} という名前のゾーンはありません",
        Key::RefuseZoneAlreadyCut => "ゾーン {0} の Node はすでにすべて切り離されています",
        Key::RefuseZoneNotCut => "ゾーン {0} に切り離された Node はありません",
        Key::RefuseControlPlaneAlreadyCut => "API サーバーにはすでにどの kubelet の声も届いていません",
        Key::RefuseControlPlaneNotCut => "API サーバーから切り離された kubelet はありません",
        Key::RefuseNoSuchPod => "Pod {0} はありません",
        Key::RefusePodNotRunning => "Pod {0} には実行中のコンテナーがありません",
        Key::RefusePodAlreadyLeaking => "Pod {0} はすでにメモリーをリークしています",
        Key::RefuseNoPodRunning => "実行中の Pod がありません",
        Key::PodPick => "Pod",
        Key::RefusePodNotLeaking => "Pod {0} はメモリーをリークしていません",
        Key::LanguageSwitch => "言語: {0}",
        Key::AnnounceDeparted => {
            "あなたの操作でストーリーが変わりました。ナレーションは、その操作が引き起こすことを伝えます。"
        }
        Key::AnnounceNodeStatus => "{0} が {1} になりました。",
        Key::AnnouncePodEvicted => "taint eviction controller が Pod {0} を退避させました。",
        Key::NoScriptIntro => {
            "nodeline は対話型のシミュレーションで、JavaScript と WebAssembly で動きます。それらがなくても、筋書きをステップごとに、その時点のステージとともに読めます。"
        }
        Key::StaticPageIntro => {
            "これは JavaScript なしで読むための、ステップごとのページに分けた nodeline の筋書きです。再生には JavaScript と WebAssembly が必要です。「このステップから再生」でその場面から開きます。"
        }
        Key::StillLoading => "このリンクのシミュレーションを読み込んでいます…",
        Key::StillFailed => {
            "ここではシミュレーションを読み込めませんでした。ステップは再生せずに、書かれたとおりに表示します。"
        }
        // kubectl panel
        Key::TabYaml => "YAML",
        Key::TabKubectl => "kubectl",
        Key::TabRequests => "リクエスト",
        Key::YamlObject => "オブジェクト",
        Key::YamlCompareWith => "比較対象",
        Key::YamlNoCompare => "なし: 直近の変更が書いた行に印を付ける",
        Key::YamlCreatedBy => "{0} に {1} が {2} から作成しました ({3})。",
        Key::YamlChangedBy => "{0} に {1} が {2} から変更しました ({3})。",
        Key::YamlChangedAt => "{0} に変更されました。",
        Key::YamlChangedLegend => "印の付いた行が、その変更で書かれた行です。",
        Key::YamlDiffTitle => "{0} の版から再生位置の版 ({1}) への差分:",
        Key::YamlNoChanges => "差分はありません。",
        Key::KubectlPromptLabel => "kubectl コマンド",
        Key::KubectlRun => "実行",
        Key::KubectlSuggestions => "例",
        Key::KubectlHelp => {
            "コマンドを入力するか、例から選んでください。↑ と ↓ で前のコマンドを呼び出せます。出力は再生位置のクラスタに対して kubectl が表示する内容で、再生位置に合わせて更新されます。"
        }
        Key::KubectlEmpty => "コマンドを実行すると、ここに kubectl の出力が表示されます。",
        Key::KubectlNoContainerOutput => {
            "nodeline はコンテナーの出力をシミュレートしません。実際には kubelet がコンテナーのログを返し、kubectl がそれを標準出力に表示します。kubectl がほかに表示したものはありません。"
        }
        Key::KubectlNoCommandRun => {
            "nodeline はコンテナー内でコマンドを実行しません。実際には kubelet がコマンドを実行し、kubectl がその出力と終了ステータスを表示します。kubectl がほかに表示したものはありません。"
        }
        Key::RequestsHelp => {
            "再生位置までの最新のリクエストを新しい順に並べています。開くと、client-go が -v=8 で記録する形で表示されます。ステージ上のリクエストをクリックしても、ここで開きます。"
        }
        Key::RequestEffect => "結果: {0}",
        // question mode
        Key::QuizSwitch => "問題",
        Key::QuizRegion => "問題",
        Key::QuizQuestionOf => "問題 {0} / {1}",
        Key::QuizCheck => "答え合わせ",
        Key::QuizSkip => "とばす",
        Key::QuizContinue => "続ける",
        Key::QuizRight => "正解です。",
        Key::QuizWrong => "残念、違います。",
        Key::QuizAnswerWas => "答え: {0}。",
        Key::QuizSeconds => "秒数",
        Key::QuizTolerance => "差が {0} 秒以内なら正解です。",
        Key::QuizEnterSeconds => "45 のように秒数を入力してください。",
        Key::QuizMoveUp => "上へ: {0}",
        Key::QuizMoveDown => "下へ: {0}",
        Key::QuizOrderHelp => "先に起きるものを上に。",
        Key::QuizNodes => "ステージのノード",
        Key::QuizPickOnStage => "下から選ぶか、ステージ上のマシンをクリックしてください。",
        Key::QuizProgress => "問題: {1} 問中 {0} 問回答、{2} 問正解",
        Key::QuizSummaryTitle => "この章の回答",
        Key::QuizSummaryTitleStory => "このストーリーの回答",
        Key::QuizAllRight => "全問正解です。",
        Key::QuizMissed => "もう一度見てみましょう:",
        Key::NoticeBadProgress => {
            "「{1}」はこの章の問題の進み具合として読めません ({0})。読めなかった回答は未回答として扱います。"
        }
    }
}
