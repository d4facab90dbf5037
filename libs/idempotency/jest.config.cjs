module.exports = { displayName: 'idempotency', preset: '../../jest.preset.cjs' };
