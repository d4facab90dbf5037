module.exports = { displayName: 'grpc', preset: '../../jest.preset.cjs' };
