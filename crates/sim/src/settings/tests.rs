//! The table of settings and their checks.
use super::*;
use std::time::Duration;

#[test]
fn every_row_reads_back_what_it_was_set_to() {
    for profile in Profile::ALL {
        let defaults = Settings::defaults(profile);
        for (row, value) in defaults.rows() {
            let mut s = Settings::defaults(profile);
            s.set(row.component.name(), row.name, &value.to_string()).expect("the default is accepted");
            assert_eq!(s.get(row.component.name(), row.name), Ok(value), "{}", row.key());
            assert!(s.is_set(row.component, row.name));
            assert_eq!(s.set_rows().count(), 1);
        }
        assert_eq!(defaults.set_rows().count(), 0);
    }
}

#[test]
fn names_are_unique_per_component_and_named_as_kubernetes_names_them() {
    for (i, a) in ROWS.iter().enumerate() {
        assert!(ROWS[..i].iter().all(|b| (b.component, b.name) != (a.component, a.name)), "{}", a.key());
        assert_eq!(a.field as usize, i, "{}: the rows are in Field's order", a.key());
        let flag = a.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
        let field = a.name.bytes().all(|b| b.is_ascii_alphanumeric()) && a.name.as_bytes()[0].is_ascii_lowercase();
        assert!(if a.component == Component::Kubelet { field } else { flag }, "{}", a.key());
    }
}

#[test]
fn the_profiles_differ_in_the_grace_period_only() {
    let (new, old) = (Settings::defaults(Profile::V1_34), Settings::defaults(Profile::V1_31));
    let differ: Vec<String> =
        new.rows().zip(old.rows()).filter(|((_, a), (_, b))| a != b).map(|((r, _), _)| r.key()).collect();
    assert_eq!(differ, ["kube-controller-manager:node-monitor-grace-period"]);
    assert_eq!(
        new.get("kube-controller-manager", "node-monitor-grace-period"),
        Ok(Value::Duration(Duration::from_secs(50)))
    );
    assert_eq!(
        old.get("kube-controller-manager", "node-monitor-grace-period"),
        Ok(Value::Duration(Duration::from_secs(40)))
    );
}

#[test]
fn unknown_names_are_refused_by_name_with_the_closest_known_one() {
    let mut s = Settings::default();
    let e = s.set("kube-controller-manager", "node-monitor-grace-perod", "20s").unwrap_err();
    assert_eq!(
        e.to_string(),
        "kube-controller-manager has no flag \"node-monitor-grace-perod\" that the simulation models \
         (did you mean \"node-monitor-grace-period\"?)"
    );
    let e = s.set("kubelet", "node-status-update-frequency", "10s").unwrap_err();
    assert!(e.to_string().contains("(did you mean \"nodeStatusUpdateFrequency\"?)"), "{e}");
    // Real Kubernetes settings the simulation does not model are refused, never ignored.
    let e = s.set("kube-controller-manager", "terminated-pod-gc-threshold", "100").unwrap_err();
    assert!(matches!(e, SettingError::UnknownSetting { .. }) && e.suggestion().is_none(), "{e:?}");
    assert!(e.to_string().starts_with("kube-controller-manager has no flag \"terminated-pod-gc-threshold\""));
    assert!(e.to_string().contains("; modelled: node-monitor-period, node-monitor-grace-period"), "{e}");
    let e = s.set("kube-controler-manager", "node-monitor-period", "5s").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown component \"kube-controler-manager\"; components with settings: kube-controller-manager, \
         kube-apiserver, kube-scheduler, kubelet (did you mean \"kube-controller-manager\"?)"
    );
    assert_eq!(s, Settings::default(), "nothing was set");
}

#[test]
fn bad_values_are_refused_with_what_was_expected() {
    let mut s = Settings::default();
    for (component, name, text, expected) in [
        ("kube-controller-manager", "node-monitor-grace-period", "abc", "a duration in Go notation"),
        ("kube-controller-manager", "node-monitor-grace-period", "-5s", "a duration in Go notation"),
        ("kube-controller-manager", "node-monitor-period", "0s", "at least 100ms"),
        ("kube-controller-manager", "node-monitor-grace-period", "0s", "greater than 0"),
        ("kube-controller-manager", "node-monitor-grace-period", "1500ns", "whole microseconds"),
        ("kube-controller-manager", "node-eviction-rate", "0.00001", "0 or at least 0.001"),
        ("kube-controller-manager", "kube-api-qps", "0", "at least 0.001"),
        ("kube-controller-manager", "large-cluster-size-threshold", "1.5", "a whole number"),
        ("kube-controller-manager", "large-cluster-size-threshold", "-1", "0 or more"),
        ("kube-controller-manager", "node-eviction-rate", "NaN", "a number"),
        ("kube-controller-manager", "node-eviction-rate", "inf", "a number"),
        ("kube-controller-manager", "unhealthy-zone-threshold", "1.5", "from 0 to 1"),
        ("kube-apiserver", "default-unreachable-toleration-seconds", "30s", "a whole number"),
        ("kubelet", "nodeLeaseDurationSeconds", "0", "greater than 0"),
        ("kubelet", "kubeAPIQPS", "", "a number"),
    ] {
        let e = s.set(component, name, text).unwrap_err();
        let message = e.to_string();
        assert!(message.starts_with(&format!("{component} {name}: expected ")), "{message}");
        assert!(message.contains(expected) && message.ends_with(&format!("not \"{text}\"")), "{message}");
    }
    assert_eq!(s, Settings::default());
}

#[test]
fn the_shutdown_pair_is_checked_as_the_kubelet_checks_it() {
    let mut s = Settings::default();
    assert_eq!(s.shutdown(), None);
    s.set("kubelet", "shutdownGracePeriodCriticalPods", "30s").unwrap();
    let e = s.check().unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid configuration: shutdownGracePeriodCriticalPods 30s must be <= shutdownGracePeriod 0s"
    );
    s.set("kubelet", "shutdownGracePeriod", "1m").unwrap();
    assert_eq!(s.check(), Ok(()));
    assert_eq!(s.shutdown().map(|p| (p.grace.as_secs(), p.critical.as_secs())), Some((60, 30)));
    s.set("kubelet", "shutdownGracePeriod", "500ms").unwrap();
    s.set("kubelet", "shutdownGracePeriodCriticalPods", "0s").unwrap();
    assert!(matches!(s.check(), Err(SettingError::Refused { name: "shutdownGracePeriod", .. })));
}

#[test]
fn resolving_keeps_what_was_set_and_takes_the_profiles_defaults() {
    let mut s = Settings::defaults(Profile::V1_34);
    s.set("kubelet", "nodeStatusUpdateFrequency", "20s").unwrap();
    let r = s.resolved(Profile::V1_31);
    assert_eq!(r.node_status_update_frequency, Duration::from_secs(20));
    assert_eq!(r.node_monitor_grace_period, Duration::from_secs(40));
    assert_eq!(r.heartbeat_timeout(), Duration::from_secs(20));
    assert_eq!(r.lease_renew_interval(), Duration::from_secs(10));
}

#[test]
fn the_constants_the_page_reads_are_the_defaults() {
    for profile in Profile::ALL {
        let s = Settings::defaults(profile);
        assert_eq!(s.lease_renew_interval(), LEASE_RENEW_INTERVAL);
        assert_eq!(s.heartbeat_timeout(), HEARTBEAT_TIMEOUT);
        assert_eq!(s.node_lease_duration_seconds, i64::from(LEASE_DURATION_SECONDS));
        assert_eq!(s.node_monitor_period, NODE_MONITOR_PERIOD);
        let gc = s.garbage_collector_client();
        assert_eq!((gc.qps, gc.burst), (40.0, 30));
    }
}

/// The kubelet defaults `nodeStatusReportFrequency` to `nodeStatusUpdateFrequency` when only
/// that is set, even to its own default (`SetDefaults_KubeletConfiguration`).
#[test]
fn the_report_frequency_follows_an_update_frequency_set_alone() {
    let mut s = Settings::default();
    s.set("kubelet", "nodeStatusUpdateFrequency", "10s").unwrap();
    assert_eq!(s.resolved(Profile::V1_34).node_status_report_frequency, Duration::from_secs(10));
    s.set("kubelet", "nodeStatusReportFrequency", "5m").unwrap();
    assert_eq!(s.resolved(Profile::V1_34).node_status_report_frequency, Duration::from_secs(300));
    assert_eq!(Settings::default().resolved(Profile::V1_31).node_status_report_frequency, Duration::from_secs(300));
}

/// Numbers are read as `str::parse::<f64>` reads them, within the digits the reader takes.
#[test]
fn numbers_read_as_rust_reads_them() {
    for text in
        ["0.1", "0.01", "0.55", "20", "+50", "-2.5", "1e9", "1E-3", "0.001", "123456789012345", "3.", ".5", "0e99"]
    {
        assert_eq!(parse_decimal(text), text.parse::<f64>().ok(), "{text}");
    }
    for text in
        ["", ".", "e5", "1e", "1e1234", "0x10", "1_000", "inf", "NaN", "1.2.3", "1234567890123456", "1e23", "- 1"]
    {
        assert_eq!(parse_decimal(text), None, "{text}");
    }
}
