#!/usr/bin/env bash
# test/mariadb_server.sh — start or stop a throwaway MariaDB server.
#
#   test/mariadb_server.sh start DIR [PORT]   install-db in DIR/data, socket in DIR
#   test/mariadb_server.sh stop DIR
#
# The MariaDB counterpart of test/pg_cluster.sh.  The server reads only
# DIR/my.cnf (never /etc/mysql, never a running system server), listens on
# the unix socket DIR/mysql.sock and on 127.0.0.1:PORT (default 3399, loopback
# only), and has performance_schema on so tests can read statement digests.
# mariadbd refuses to run as root, so as root it runs as the user "mysql".
# Prints the environment to reach it (never a password):
#   export MYSQL_SOCKET='DIR/mysql.sock' MYSQL_PORT=3399 MYSQL_HOST=127.0.0.1 MYSQL_USER=root \
#          MYSQL_UNIX_PORT='DIR/mysql.sock' MYSQL_TCP_PORT=3399
# MYSQL_UNIX_PORT and MYSQL_TCP_PORT are the names the mariadb client library
# reads, so a client given no socket or port still reaches this server and not
# a system one.  Beware: with MYSQL_HOST=127.0.0.1 in the environment the
# mariadb client uses TCP even when given --socket; add -hlocalhost for the
# socket.
#
# Accounts, all with the password $MB_MYSQL_ROOT_PASSWORD (default "microbench"):
#   root@localhost   socket; also without password for the OS user root (unix_socket)
#   root@127.0.0.1, root@::1   TCP
#   bench@localhost, bench@%   ALL PRIVILEGES, like root but without GRANT OPTION
# and an empty database "sbtest".  Connect with
#   mariadb --socket=DIR/mysql.sock -uroot -p"$MB_MYSQL_ROOT_PASSWORD"
#   MYSQL_PWD="$MB_MYSQL_ROOT_PASSWORD" mariadb -hlocalhost --socket=DIR/mysql.sock -uroot
#   MYSQL_PWD="$MB_MYSQL_ROOT_PASSWORD" mariadb --no-defaults -h127.0.0.1 -P3399 -ubench
# Scripts pass the password in MYSQL_PWD, never on the command line.  Tests of
# password handling should use bench or TCP: as OS root, root@localhost over
# the socket gets in whatever password is sent.
set -euo pipefail

cmd=${1:?usage: mariadb_server.sh start|stop DIR [PORT]}
dir=${2:?usage: mariadb_server.sh start|stop DIR [PORT]}
port=${3:-3399}
password=${MB_MYSQL_ROOT_PASSWORD:-microbench}
# The client library reads these; a caller that eval'ed our exports for
# another server would otherwise send our own admin calls to that server.
unset MYSQL_HOST MYSQL_TCP_PORT MYSQL_UNIX_PORT MYSQL_PWD

find_bin() {
    local name
    for name in "$@"; do
        command -v "$name" 2>/dev/null && return 0
        for d in /usr/sbin /usr/bin; do
            [ -x "$d/$name" ] && { echo "$d/$name"; return 0; }
        done
    done
    echo "mariadb_server.sh: none of $* found" >&2
    return 1
}

# The pid in DIR/mariadbd.pid, if that process is alive and is a MariaDB server.
server_pid() {
    local pid comm
    [ -f "$dir/mariadbd.pid" ] || return 1
    pid=$(cat "$dir/mariadbd.pid" 2>/dev/null) || return 1
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
    case "$comm" in mariadbd|mysqld) echo "$pid" ;; *) return 1 ;; esac
}

wait_gone() {   # PID SECONDS
    local i
    for ((i = 0; i < $2 * 10; i++)); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    return 1
}

case "$cmd" in
start)
    if [ -e "$dir/data" ]; then
        if pid=$(server_pid); then
            echo "mariadb_server.sh: a server (pid $pid) already runs on $dir/data" >&2
        else
            echo "mariadb_server.sh: $dir/data already exists; run 'stop $dir' first" >&2
        fi
        exit 1
    fi
    mariadbd=$(find_bin mariadbd mysqld)
    install_db=$(find_bin mariadb-install-db mysql_install_db)
    client=$(find_bin mariadb mysql)
    admin=$(find_bin mariadb-admin mysqladmin)
    user_opt=()
    if [ "$(id -u)" = 0 ]; then user_opt=(--user=mysql); fi

    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    cat >"$dir/my.cnf" <<CONF
[mysqld]
datadir = $dir/data
tmpdir = $dir
socket = $dir/mysql.sock
pid-file = $dir/mariadbd.pid
log-error = $dir/error.log
port = $port
bind-address = 127.0.0.1
skip-name-resolve
skip-log-bin
innodb_buffer_pool_size = 256M
innodb_log_file_size = 128M
max_connections = 200
performance_schema = ON

[client]
socket = $dir/mysql.sock
port = $port
CONF
    if [ "$(id -u)" = 0 ]; then chown -R mysql: "$dir"; fi
    chmod 700 "$dir"

    "$install_db" --defaults-file="$dir/my.cnf" "${user_opt[@]}" \
        --auth-root-authentication-method=normal --skip-test-db --skip-name-resolve \
        >"$dir/install-db.log" 2>&1 \
        || { cat "$dir/install-db.log" >&2; exit 1; }

    # Detached from our stdout, so that $(mariadb_server.sh start ...) returns.
    "$mariadbd" --defaults-file="$dir/my.cnf" "${user_opt[@]}" \
        </dev/null >>"$dir/error.log" 2>&1 &
    pid=$!
    fail() {
        echo "mariadb_server.sh: $1" >&2
        cat "$dir/error.log" >&2
        kill "$pid" 2>/dev/null && wait_gone "$pid" 30
        exit 1
    }
    ready=""
    for ((i = 0; i < 600; i++)); do
        kill -0 "$pid" 2>/dev/null || fail "mariadbd exited during start-up"
        if [ -S "$dir/mysql.sock" ] \
            && MYSQL_PWD="" "$admin" --no-defaults -hlocalhost --socket="$dir/mysql.sock" \
                -uroot --connect-timeout=2 status >/dev/null 2>&1; then
            ready=1
            break
        fi
        sleep 0.1
    done
    [ -n "$ready" ] || fail "mariadbd did not accept connections within 60 s"

    pw=${password//\\/\\\\}
    pw=${pw//\'/\'\'}
    MYSQL_PWD="" "$client" --no-defaults -hlocalhost --socket="$dir/mysql.sock" -uroot \
        >"$dir/setup.log" 2>&1 <<SQL || { cat "$dir/setup.log" >&2; fail "account set-up failed"; }
DELETE FROM mysql.global_priv WHERE User = '' OR (User = 'root' AND Host <> 'localhost');
DELETE FROM mysql.proxies_priv WHERE User = '' OR (User = 'root' AND Host <> 'localhost');
FLUSH PRIVILEGES;
ALTER USER root@localhost IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD('$pw');
CREATE USER root@'127.0.0.1' IDENTIFIED BY '$pw';
GRANT ALL PRIVILEGES ON *.* TO root@'127.0.0.1' WITH GRANT OPTION;
CREATE USER root@'::1' IDENTIFIED BY '$pw';
GRANT ALL PRIVILEGES ON *.* TO root@'::1' WITH GRANT OPTION;
CREATE USER bench@localhost IDENTIFIED BY '$pw';
GRANT ALL PRIVILEGES ON *.* TO bench@localhost;
CREATE USER bench@'%' IDENTIFIED BY '$pw';
GRANT ALL PRIVILEGES ON *.* TO bench@'%';
CREATE DATABASE sbtest;
SQL
    echo "export MYSQL_SOCKET='$dir/mysql.sock' MYSQL_PORT=$port MYSQL_HOST=127.0.0.1 MYSQL_USER=root" \
        "MYSQL_UNIX_PORT='$dir/mysql.sock' MYSQL_TCP_PORT=$port"
    ;;
stop)
    if pid=$(server_pid); then
        admin=$(find_bin mariadb-admin mysqladmin)
        MYSQL_PWD=$password "$admin" --no-defaults -hlocalhost --socket="$dir/mysql.sock" -uroot \
            --connect-timeout=10 shutdown >/dev/null 2>&1 \
            || kill "$pid" 2>/dev/null || true
        if ! wait_gone "$pid" 60; then
            echo "mariadb_server.sh: mariadbd $pid did not stop; killing it" >&2
            kill -KILL "$pid" 2>/dev/null || true
            wait_gone "$pid" 10 || true
        fi
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: mariadb_server.sh start|stop DIR [PORT]" >&2
    exit 2
    ;;
esac
