module.exports = { displayName: 'outbox', preset: '../../jest.preset.cjs' };
