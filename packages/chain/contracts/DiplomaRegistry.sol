// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Sceau diploma registry
/// @notice Anchors the Merkle root of each signed batch of diplomas, and records revocations of a
/// diploma (by its targetHash) or of a whole batch (by its root). Anyone can read it; only the
/// ministry's accounts holding the issuer or revoker role can write.
/// @dev One storage slot per hash: issuing a batch costs one cold slot write, whatever the batch
/// size. A root and a diploma hash share the mapping (a one-diploma batch's root is its hash).
contract DiplomaRegistry {
    uint8 public constant ADMIN_ROLE = 1;
    uint8 public constant ISSUER_ROLE = 2;
    uint8 public constant REVOKER_ROLE = 4;

    /// Packed in one slot. Zero timestamps mean "not issued" / "not revoked" (no block has time 0).
    struct Record {
        uint64 issuedAt;
        uint64 issuedBlock;
        uint64 revokedAt;
        uint64 revokedBlock;
    }

    mapping(bytes32 => Record) private records;
    /// Bit set of ADMIN_ROLE | ISSUER_ROLE | REVOKER_ROLE per account.
    mapping(address => uint8) public roles;

    event Issued(bytes32 indexed root, address indexed issuer);
    event Revoked(bytes32 indexed hash, address indexed revoker, string reason);
    event RoleGranted(uint8 indexed role, address indexed account, address indexed sender);
    event RoleRevoked(uint8 indexed role, address indexed account, address indexed sender);

    error MissingRole(address account, uint8 role);
    error InvalidRole(uint8 role);
    error ZeroHash();
    error ZeroAddress();
    error AlreadyIssued(bytes32 root);
    error AlreadyRevoked(bytes32 hash);
    error HashRevoked(bytes32 hash);
    error CannotDropOwnAdmin();

    modifier onlyRole(uint8 role) {
        if (roles[msg.sender] & role == 0) revert MissingRole(msg.sender, role);
        _;
    }

    /// The deploying ministry account gets every role.
    constructor() {
        _grant(ADMIN_ROLE | ISSUER_ROLE | REVOKER_ROLE, msg.sender);
    }

    /// Anchors a batch root. Fails if the root is already issued or has been revoked.
    function issue(bytes32 root) external onlyRole(ISSUER_ROLE) {
        if (root == bytes32(0)) revert ZeroHash();
        Record storage r = records[root];
        if (r.revokedAt != 0) revert HashRevoked(root);
        if (r.issuedAt != 0) revert AlreadyIssued(root);
        records[root] = Record(uint64(block.timestamp), uint64(block.number), 0, 0);
        emit Issued(root, msg.sender);
    }

    /// Revokes a diploma's targetHash or a whole batch's root. The reason lives in the event only.
    function revoke(bytes32 hash, string calldata reason) external onlyRole(REVOKER_ROLE) {
        if (hash == bytes32(0)) revert ZeroHash();
        Record storage r = records[hash];
        if (r.revokedAt != 0) revert AlreadyRevoked(hash);
        r.revokedAt = uint64(block.timestamp);
        r.revokedBlock = uint64(block.number);
        emit Revoked(hash, msg.sender, reason);
    }

    function isIssued(bytes32 root) external view returns (bool) {
        return records[root].issuedAt != 0;
    }

    function isRevoked(bytes32 hash) external view returns (bool) {
        return records[hash].revokedAt != 0;
    }

    /// Block timestamp and number of the issuing transaction; zeros if never issued.
    function issuedAt(bytes32 root) external view returns (uint64 timestamp, uint64 blockNumber) {
        Record storage r = records[root];
        return (r.issuedAt, r.issuedBlock);
    }

    /// Block timestamp and number of the revoking transaction; zeros if not revoked.
    function revokedAt(bytes32 hash) external view returns (uint64 timestamp, uint64 blockNumber) {
        Record storage r = records[hash];
        return (r.revokedAt, r.revokedBlock);
    }

    function hasRole(address account, uint8 role) external view returns (bool) {
        return roles[account] & role == role;
    }

    function grantRole(uint8 role, address account) external onlyRole(ADMIN_ROLE) {
        _grant(role, account);
    }

    function revokeRole(uint8 role, address account) external onlyRole(ADMIN_ROLE) {
        _checkRole(role);
        // An admin cannot lock the registry by removing its own admin role.
        if (account == msg.sender && role & ADMIN_ROLE != 0) revert CannotDropOwnAdmin();
        uint8 had = roles[account];
        roles[account] = had & ~role;
        if (had & role != 0) emit RoleRevoked(role, account, msg.sender);
    }

    function _grant(uint8 role, address account) private {
        _checkRole(role);
        if (account == address(0)) revert ZeroAddress();
        uint8 had = roles[account];
        roles[account] = had | role;
        if (had & role != role) emit RoleGranted(role, account, msg.sender);
    }

    function _checkRole(uint8 role) private pure {
        if (role == 0 || role & ~(ADMIN_ROLE | ISSUER_ROLE | REVOKER_ROLE) != 0) revert InvalidRole(role);
    }
}
