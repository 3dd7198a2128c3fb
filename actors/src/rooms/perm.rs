//! Who may do what in a room (social.md §6), as ONE table: roles × commands, one command per
//! call, deny by default.
//!
//! A user holds a set of roles in a room (a guest who controls is Viewer and Controller; a vip
//! guest is Viewer and Member; flags add Official, SuperAdmin, Minor). Each cell says Allow,
//! Forbid or nothing; a command is allowed when one of the user's roles allows it and none
//! forbids it. Forbid is how the restrictions of minors and super admins override what their
//! other roles allow; everything the table does not allow is denied.

use crate::error::DomainError;

/// A role in a room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Host = 0,
    Controller = 1,
    Viewer = 2,
    /// A vip or vvip holder (cross-screen).
    Member = 3,
    /// users.status 1.
    Official = 4,
    /// users.status 3.
    SuperAdmin = 5,
    /// Minors: no relay, no control.
    Minor = 6,
    /// The operator withdrew the user's relay qualification (USER_NOT_RELAY): no relay of
    /// their own, no control of another's.
    Unqualified = 7,
}

pub const ROLES: [Role; 8] = [
    Role::Host,
    Role::Controller,
    Role::Viewer,
    Role::Member,
    Role::Official,
    Role::SuperAdmin,
    Role::Minor,
    Role::Unqualified,
];

/// A set of roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Roles(u8);

impl Roles {
    pub fn of(roles: &[Role]) -> Roles {
        Roles(roles.iter().fold(0, |acc, r| acc | 1 << *r as u8))
    }

    pub fn with(self, role: Role) -> Roles {
        Roles(self.0 | 1 << role as u8)
    }

    pub fn has(self, role: Role) -> bool {
        self.0 & (1 << role as u8) != 0
    }
}

/// One command per call (social.md §7), plus playing the game (input reaches it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    CreateRoom,
    Enter,
    Exit,
    Info,
    UserList,
    Connect,
    Chat,
    Report,
    MikeList,
    MikeUp,
    MikeDown,
    MikeReqJoin,
    MikeReqCancel,
    MikeInviteAnswer,
    ControlApply,
    ControlInviteAnswer,
    ControlRemand,
    Play,
    CrossScreen,
    EditRoom,
    EndRoom,
    LiveDetail,
    MikeInvite,
    MikeOperate,
    MikeLock,
    MikeReqManage,
    ControlList,
    ControlAssign,
    ControlDeny,
    ControlRecycle,
    ControlInvite,
    Rotation,
    Kick,
    Blacklist,
    ChatBan,
}

/// A cell of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// This role may.
    Allow,
    /// This role may not, whatever the user's other roles allow.
    Forbid,
    /// No say.
    No,
}

use Cell::{Allow as A, Forbid as F, No as N};

/// The table. Columns: Host, Controller, Viewer, Member, Official, SuperAdmin, Minor, Unqualified.
#[rustfmt::skip]
pub const TABLE: &[(Command, [Cell; 8])] = &[
    //                             Host Ctrl View Memb Offi SupA Minor Unq
    (Command::CreateRoom,          [N,   N,   A,   N,   N,   F,   F,   F]),
    (Command::Enter,               [A,   N,   A,   N,   N,   N,   F,   N]),
    (Command::Exit,                [A,   N,   A,   N,   N,   N,   N,   N]),
    (Command::Info,                [A,   N,   A,   N,   N,   N,   N,   N]),
    (Command::UserList,            [A,   N,   A,   N,   N,   N,   N,   N]),
    (Command::Connect,             [A,   N,   A,   N,   N,   N,   N,   N]),
    (Command::Chat,                [A,   N,   A,   N,   N,   N,   N,   N]),
    (Command::Report,              [N,   N,   A,   N,   N,   N,   N,   N]),
    (Command::MikeList,            [A,   N,   A,   N,   N,   N,   N,   N]),
    (Command::MikeUp,              [N,   N,   A,   N,   N,   N,   N,   N]),
    (Command::MikeDown,            [N,   N,   A,   N,   N,   N,   N,   N]),
    (Command::MikeReqJoin,         [N,   N,   A,   N,   N,   N,   N,   N]),
    (Command::MikeReqCancel,       [N,   N,   A,   N,   N,   N,   N,   N]),
    (Command::MikeInviteAnswer,    [N,   N,   A,   N,   N,   N,   N,   N]),
    (Command::ControlApply,        [N,   N,   A,   N,   N,   N,   F,   F]),
    (Command::ControlInviteAnswer, [N,   N,   A,   N,   N,   N,   F,   F]),
    (Command::ControlRemand,       [N,   A,   N,   N,   N,   N,   N,   N]),
    (Command::Play,                [A,   A,   N,   N,   N,   N,   F,   F]),
    (Command::CrossScreen,         [N,   N,   N,   A,   N,   N,   N,   N]),
    (Command::EditRoom,            [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::EndRoom,             [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::LiveDetail,          [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::MikeInvite,          [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::MikeOperate,         [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::MikeLock,            [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::MikeReqManage,       [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::ControlList,         [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::ControlAssign,       [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::ControlDeny,         [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::ControlRecycle,      [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::ControlInvite,       [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::Rotation,            [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::Kick,                [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::Blacklist,           [A,   N,   N,   N,   N,   N,   N,   N]),
    (Command::ChatBan,             [A,   N,   N,   N,   N,   N,   N,   N]),
];

/// The cell of one role and command (a command missing from the table is denied).
pub fn cell(role: Role, cmd: Command) -> Cell {
    TABLE
        .iter()
        .find(|(c, _)| *c == cmd)
        .map_or(Cell::No, |(_, row)| row[role as usize])
}

/// Whether a user with `roles` may run `cmd`.
pub fn allowed(roles: Roles, cmd: Command) -> bool {
    let held = ROLES.iter().filter(|r| roles.has(**r));
    let mut any = false;
    for r in held {
        match cell(*r, cmd) {
            Cell::Forbid => return false,
            Cell::Allow => any = true,
            Cell::No => {}
        }
    }
    any
}

/// [`allowed`], as the refusal the caller sees: a minor's and a super admin's own codes, else
/// "no permission".
pub fn check(roles: Roles, cmd: Command) -> Result<(), DomainError> {
    if allowed(roles, cmd) {
        return Ok(());
    }
    if roles.has(Role::Minor) && cell(Role::Minor, cmd) == Cell::Forbid {
        return Err(match cmd {
            Command::Enter => DomainError::Minor,
            Command::CreateRoom => DomainError::MinorRelayLimit,
            _ => DomainError::MinorControlLimit,
        });
    }
    if roles.has(Role::SuperAdmin) && cell(Role::SuperAdmin, cmd) == Cell::Forbid {
        return Err(DomainError::SuperAdminRoom);
    }
    if roles.has(Role::Unqualified) && cell(Role::Unqualified, cmd) == Cell::Forbid {
        return Err(DomainError::NotRelayQualified);
    }
    Err(DomainError::RoomForbidden)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table as the spec and the design read (one line per command, one letter per role:
    /// a allow, f forbid, . nothing), checked cell by cell against [`cell`].
    const EXPECTED: &str = "
        CreateRoom          ..a..fff
        Enter               a.a...f.
        Exit                a.a.....
        Info                a.a.....
        UserList            a.a.....
        Connect             a.a.....
        Chat                a.a.....
        Report              ..a.....
        MikeList            a.a.....
        MikeUp              ..a.....
        MikeDown            ..a.....
        MikeReqJoin         ..a.....
        MikeReqCancel       ..a.....
        MikeInviteAnswer    ..a.....
        ControlApply        ..a...ff
        ControlInviteAnswer ..a...ff
        ControlRemand       .a......
        Play                aa....ff
        CrossScreen         ...a....
        EditRoom            a.......
        EndRoom             a.......
        LiveDetail          a.......
        MikeInvite          a.......
        MikeOperate         a.......
        MikeLock            a.......
        MikeReqManage       a.......
        ControlList         a.......
        ControlAssign       a.......
        ControlDeny         a.......
        ControlRecycle      a.......
        ControlInvite       a.......
        Rotation            a.......
        Kick                a.......
        Blacklist           a.......
        ChatBan             a.......";

    #[test]
    fn every_cell() {
        let lines: Vec<&str> = EXPECTED.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        assert_eq!(lines.len(), TABLE.len(), "one line per command");
        for (line, (cmd, _)) in lines.iter().zip(TABLE) {
            let (name, cells) = line.split_once(' ').expect("name and cells");
            assert_eq!(name, format!("{cmd:?}"));
            let cells = cells.trim();
            assert_eq!(cells.len(), ROLES.len(), "{name}");
            for (role, want) in ROLES.iter().zip(cells.chars()) {
                let want = match want {
                    'a' => Cell::Allow,
                    'f' => Cell::Forbid,
                    _ => Cell::No,
                };
                assert_eq!(cell(*role, *cmd), want, "{name} × {role:?}");
            }
        }
    }

    // Deny by default: a role with no say, or no role at all, may do nothing.
    #[test]
    fn deny_by_default() {
        for (cmd, _) in TABLE {
            assert!(!allowed(Roles::default(), *cmd), "{cmd:?} without roles");
            assert!(!allowed(Roles::of(&[Role::Official]), *cmd), "{cmd:?} as official alone");
        }
    }

    // Roles combine: a controller guest plays; a minor guest may not apply for control; a
    // vip guest moves their screen; the host may not apply for control nor take a seat.
    #[test]
    fn combined_roles() {
        let check_ =
            |roles: &[Role], cmd, want: Result<(), DomainError>| assert_eq!(check(Roles::of(roles), cmd), want, "{roles:?} {cmd:?}");
        check_(&[Role::Viewer, Role::Controller], Command::Play, Ok(()));
        check_(&[Role::Viewer], Command::Play, Err(DomainError::RoomForbidden));
        check_(
            &[Role::Viewer, Role::Minor],
            Command::ControlApply,
            Err(DomainError::MinorControlLimit),
        );
        check_(&[Role::Viewer, Role::Minor], Command::Enter, Err(DomainError::Minor));
        check_(&[Role::Viewer, Role::Minor], Command::CreateRoom, Err(DomainError::MinorRelayLimit));
        check_(&[Role::Viewer, Role::Minor], Command::Chat, Ok(()));
        check_(
            &[Role::Viewer, Role::SuperAdmin],
            Command::CreateRoom,
            Err(DomainError::SuperAdminRoom),
        );
        check_(&[Role::Viewer, Role::SuperAdmin], Command::Enter, Ok(()));
        check_(&[Role::Viewer, Role::Member], Command::CrossScreen, Ok(()));
        check_(&[Role::Viewer], Command::CrossScreen, Err(DomainError::RoomForbidden));
        check_(&[Role::Host], Command::ControlApply, Err(DomainError::RoomForbidden));
        check_(&[Role::Host], Command::MikeUp, Err(DomainError::RoomForbidden));
        check_(&[Role::Viewer], Command::Kick, Err(DomainError::RoomForbidden));
        check_(&[Role::Host, Role::Official], Command::Kick, Ok(()));
        // Relay qualification withdrawn: no room of their own, no control of another's
        // (20154), while watching and chatting stay.
        for cmd in [Command::CreateRoom, Command::ControlApply, Command::ControlInviteAnswer] {
            check_(&[Role::Viewer, Role::Unqualified], cmd, Err(DomainError::NotRelayQualified));
        }
        check_(
            &[Role::Viewer, Role::Controller, Role::Unqualified],
            Command::Play,
            Err(DomainError::NotRelayQualified),
        );
        check_(&[Role::Viewer, Role::Unqualified], Command::Enter, Ok(()));
        check_(&[Role::Viewer, Role::Unqualified], Command::Chat, Ok(()));
    }
}
